package io.drover.converger.autoscale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Ticks the autoscaler every interval on a thread of its own ({@code autoscaler}), on the converger's leader only
 * (standbys keep the timer), and counts what it did: {@code drover.autoscaler.tick} (a timer),
 * {@code drover.autoscaler.decisions} (LRPs decided) and {@code drover.autoscaler.scales} by {@code direction}.
 */
class AutoscalerLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AutoscalerLoop.class);

    private final Autoscaler autoscaler;
    private final BooleanSupplier leader;
    private final long intervalMillis;
    private final Timer ticks;
    private final Counter decisions;
    private final Counter up;
    private final Counter down;
    private ScheduledExecutorService thread;

    AutoscalerLoop(Autoscaler autoscaler, BooleanSupplier leader, long intervalMillis, MeterRegistry meters) {
        this.autoscaler = autoscaler;
        this.leader = leader;
        this.intervalMillis = intervalMillis;
        this.ticks = Timer.builder("drover.autoscaler.tick").description("one autoscaler tick over every "
                + "autoscaled LRP").register(meters);
        this.decisions = Counter.builder("drover.autoscaler.decisions").description("autoscaled LRPs decided")
                .register(meters);
        this.up = Counter.builder("drover.autoscaler.scales").tag("direction", "up").register(meters);
        this.down = Counter.builder("drover.autoscaler.scales").tag("direction", "down").register(meters);
    }

    private void tick() {
        if (!leader.getAsBoolean()) {
            return;
        }
        long started = System.nanoTime();
        try {
            Autoscaler.Tick tick = autoscaler.tick();
            decisions.increment(tick.decided());
            up.increment(tick.up());
            down.increment(tick.down());
        } catch (RuntimeException e) {
            log.warn("autoscaler-tick-failed cause={}", e.toString());
        } finally {
            ticks.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "autoscaler");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
