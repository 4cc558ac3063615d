package io.drover.rep.cell;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/** The rep's meters (SPEC 10), shared by all cells of the process: sync duration, claims, starts, crashes and more. */
public final class RepMetrics {

    private final MeterRegistry registry;
    private final Timer syncDuration;
    private final Counter claims;
    private final Counter starts;
    private final Counter crashes;
    private final Counter removes;
    private final Counter destroys;
    private final Counter stale;
    private final Counter heartbeatFailures;

    public RepMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.syncDuration = Timer.builder("drover.rep.sync.duration").description("one sync pass of one cell")
                .register(registry);
        this.claims = counter("drover.rep.claims", "instances claimed");
        this.starts = counter("drover.rep.starts", "instances reported RUNNING");
        this.crashes = counter("drover.rep.crashes", "crashes recorded");
        this.removes = counter("drover.rep.removes", "records removed (stopped or no container)");
        this.destroys = counter("drover.rep.destroys", "containers stopped because the slot is not theirs");
        this.stale = counter("drover.rep.placements.stale", "placements dropped as redelivered or overtaken");
        this.heartbeatFailures = counter("drover.rep.heartbeat.failures", "heartbeats that could not be written");
    }

    private Counter counter(String name, String description) {
        return Counter.builder(name).description(description).register(registry);
    }

    public MeterRegistry registry() {
        return registry;
    }

    public void sync(Duration took) {
        syncDuration.record(took);
    }

    public void claimed(int n) {
        claims.increment(n);
    }

    public void started(int n) {
        starts.increment(n);
    }

    public void crashed() {
        crashes.increment();
    }

    public void removed() {
        removes.increment();
    }

    public void destroyed() {
        destroys.increment();
    }

    public void stale(int n) {
        stale.increment(n);
    }

    public void rejected(String reason, int n) {
        registry.counter("drover.rep.placements.rejected", "reason", reason).increment(n);
    }

    public void heartbeatFailed() {
        heartbeatFailures.increment();
    }
}
