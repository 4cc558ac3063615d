package io.drover.rep.executor.process;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves what the processes of one executor printed into their journals, every quarter second: that is when a line
 * gets its timestamp, and how soon a follower sees it. A quiet container costs two {@code stat} calls per round.
 */
final class LogPump {

    private static final Logger log = LoggerFactory.getLogger(LogPump.class);

    static final Duration INTERVAL = Duration.ofMillis(250);

    private final ProcessRuntime runtime;
    private final Supplier<Collection<ProcessContainer>> containers;
    private ScheduledFuture<?> pumping;

    LogPump(ProcessRuntime runtime, Supplier<Collection<ProcessContainer>> containers) {
        this.runtime = runtime;
        this.containers = containers;
    }

    void start() {
        pumping = runtime.scheduler().scheduleWithFixedDelay(this::pump, INTERVAL.toMillis(), INTERVAL.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void close() {
        if (pumping != null) {
            pumping.cancel(false);
        }
    }

    private void pump() {
        try {
            for (ProcessContainer container : containers.get()) {
                if (!container.isTerminal()) {
                    container.instance().journal().ingest();
                }
            }
        } catch (RuntimeException e) {
            log.warn("pump-logs-failed", e);
        }
    }
}
