package io.drover.converger;

import io.drover.converger.pass.OncePassHook;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The one converger context the integration tests share (same annotation, same cached context): real PostgreSQL and
 * Kafka, a {@link MutableClock} the tests move by hand, a {@link OncePassHook} they arm to change the world during a
 * pass, and short timings so a pass follows a change within a second.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(properties = {
        "server.port=0",
        "drover.converger.interval=300ms",
        "drover.converger.cell-watch-interval=100ms",
        "drover.converger.debounce=50ms",
        "drover.converger.desired-change-delay=200ms",
        "drover.converger.gc-batch-size=5",
        "drover.converger.gc-interval=1h",
        "drover.converger.tally-fold-interval=300ms",
        "drover.converger.tasks.callback-interval=200ms",
        "drover.autoscaler.interval=1h" })
@WithDroverInfrastructure
@Import({ ConvergerIntegrationTest.Clocks.class, OncePassHook.class })
public @interface ConvergerIntegrationTest {

    /** Time the tests control: crash back-offs and presence TTLs pass without waiting. */
    @TestConfiguration(proxyBeanMethods = false)
    class Clocks {

        /** Whole milliseconds: PostgreSQL keeps microseconds, so a nanosecond clock would not read back exactly. */
        @Bean
        MutableClock clock() {
            return new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));
        }
    }
}
