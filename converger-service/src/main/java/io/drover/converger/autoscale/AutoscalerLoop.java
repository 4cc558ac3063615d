package io.drover.converger.autoscale;

import io.drover.converger.LeaderTicker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ticks the autoscaler every interval on a thread of its own ({@code autoscaler}), on the converger's leader only
 * (standbys keep the timer), and counts what it did: {@code drover.autoscaler.tick} (a timer),
 * {@code drover.autoscaler.decisions} (LRPs decided) and {@code drover.autoscaler.scales} by {@code direction}.
 */
class AutoscalerLoop extends LeaderTicker {

    private static final Logger log = LoggerFactory.getLogger(AutoscalerLoop.class);

    private final Autoscaler autoscaler;
    private final Timer ticks;
    private final Counter decisions;
    private final Counter up;
    private final Counter down;

    AutoscalerLoop(Autoscaler autoscaler, BooleanSupplier leader, long intervalMillis, MeterRegistry meters) {
        super("autoscaler", leader, intervalMillis);
        this.autoscaler = autoscaler;
        this.ticks = Timer.builder("drover.autoscaler.tick").description("one autoscaler tick over every "
                + "autoscaled LRP").register(meters);
        this.decisions = Counter.builder("drover.autoscaler.decisions").description("autoscaled LRPs decided")
                .register(meters);
        this.up = Counter.builder("drover.autoscaler.scales").tag("direction", "up").register(meters);
        this.down = Counter.builder("drover.autoscaler.scales").tag("direction", "down").register(meters);
    }

    @Override
    protected void tickAsLeader() {
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
}
