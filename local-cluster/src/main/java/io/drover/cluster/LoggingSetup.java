package io.drover.cluster;

import java.util.concurrent.locks.ReentrantLock;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Spring Boot sets up Logback as a context starts, once per JVM; contexts starting side by side would each see it not
 * yet set up and each add their console appender (every line then printed five times). These listeners let one
 * context at a time through that step: from its start until its logging is set up.
 */
final class LoggingSetup {

    private static final ReentrantLock ONE_AT_A_TIME = new ReentrantLock();

    private LoggingSetup() {
    }

    static ApplicationListener<?>[] listeners() {
        return new ApplicationListener<?>[] {new Enter(), new Leave()};
    }

    /** Before Spring Boot's logging listener sees the application start. */
    private static final class Enter implements ApplicationListener<ApplicationStartingEvent>, Ordered {

        @Override
        public void onApplicationEvent(ApplicationStartingEvent event) {
            ONE_AT_A_TIME.lock();
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    /** After it has set logging up (or the start failed before). */
    private static final class Leave implements ApplicationListener<ApplicationEvent>, Ordered {

        @Override
        public void onApplicationEvent(ApplicationEvent event) {
            if ((event instanceof ApplicationEnvironmentPreparedEvent || event instanceof ApplicationFailedEvent)
                    && ONE_AT_A_TIME.isHeldByCurrentThread()) {
                ONE_AT_A_TIME.unlock();
            }
        }

        @Override
        public int getOrder() {
            return LoggingApplicationListener.DEFAULT_ORDER + 1;
        }
    }
}
