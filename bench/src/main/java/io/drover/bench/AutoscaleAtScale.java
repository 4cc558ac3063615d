package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * P9 (SPEC 17): {@code n} autoscaled LRPs on simulated cells, a load step up and back down. Each LRP starts with one
 * instance under a total simulated CPU demand of {@value #LOW} % (a target of {@value #TARGET} %: it stays at one);
 * then every LRP's demand steps to {@value #HIGH} %, which the HPA's rule sizes at {@code ceil(HIGH / TARGET)} = 6
 * instances (each then reports 50 %); then back to {@value #LOW} %, which brings each to one again once the scale-down
 * delay has passed. Measured: the time until every LRP runs its computed size after each step, the autoscaler's CPU per
 * decision (its thread's CPU over the decisions it made) and its tick's wall time, and the flaps: direction changes of
 * one LRP's scales less than the stabilisation window apart, from the audit rows (must be 0).
 */
final class AutoscaleAtScale {

    static final String PREFIX = "as-";
    static final int TARGET = 50;
    static final int LOW = 40;
    static final int HIGH = 300;
    static final int MAX = 10;
    static final int DOWN_DELAY_S = 60;

    private final ReceptorClient client;
    private final Database db;
    private final LocalCluster cluster;

    /**
     * The autoscaler at a pace a benchmark can wait for: a tick every 5 s, an instance counted 10 s after it runs, the
     * reps sampling every 2 s; and the LRPs' starting demand.
     */
    static Map<String, String> clusterProperties() {
        return Map.of("drover.autoscaler.interval", "5s", "drover.autoscaler.warmup", "10s",
                "drover.rep.usage.interval", "2s", "drover.rep.simulated.load.cpu[" + PREFIX + "]", "" + LOW);
    }

    AutoscaleAtScale(ReceptorClient client, Database db, LocalCluster cluster) {
        this.client = client;
        this.db = db;
        this.cluster = cluster;
    }

    List<Figure> run(int lrps, int concurrency, Duration timeout) throws InterruptedException {
        double startedAt = db.doubles("SELECT extract(epoch FROM clock_timestamp())")[0];
        desire(lrps, concurrency);
        awaitCount("RUNNING instances", "SELECT count(*) FROM actual_lrps WHERE process_guid LIKE 'as-%' AND state = "
                + "'RUNNING'", lrps, timeout);
        awaitCount("LRPs measured at one instance", "SELECT count(*) FROM autoscaler_states WHERE process_guid LIKE "
                + "'as-%' AND counted_instances = 1 AND computed_instances = 1", lrps, timeout);
        MeterRegistry meters = cluster.service("converger-service").getBean(MeterRegistry.class);
        Counter decisions = meters.get("drover.autoscaler.decisions").counter();
        Timer ticks = meters.get("drover.autoscaler.tick").timer();
        ServiceCpu autoscaler = ServiceCpu.threadsNamed("autoscaler");
        double cpuBefore = autoscaler.seconds();
        double decisionsBefore = decisions.count();
        long ticksBefore = ticks.count();
        double tickMsBefore = ticks.totalTime(TimeUnit.MILLISECONDS);

        int size = (int) Math.ceil((double) HIGH / TARGET);
        setLoad(HIGH);
        double up = awaitSize(lrps, size, timeout);
        setLoad(LOW);
        double down = awaitSize(lrps, 1, timeout.plusSeconds(DOWN_DELAY_S));

        double decided = decisions.count() - decisionsBefore;
        double cpuMicros = (autoscaler.seconds() - cpuBefore) * 1e6 / Math.max(1, decided);
        long tickCount = ticks.count() - ticksBefore;
        double tickMs = (ticks.totalTime(TimeUnit.MILLISECONDS) - tickMsBefore) / Math.max(1, tickCount);
        double quietTickMs = quietTick(ticks, timeout);
        long flaps = flaps(startedAt);
        long scales = db.count("SELECT count(*) FROM lrp_events WHERE actor_service = 'autoscaler' AND "
                + "event_type = 'desired_lrp_changed' AND at >= to_timestamp(?)", startedAt);
        boolean reached = !Double.isNaN(up) && !Double.isNaN(down);
        List<Figure> figures = new ArrayList<>();
        figures.add(new Figure("P9 %,d autoscaled LRPs, load step %d%% -> %d%% -> %d%% (target %d%%)".formatted(lrps,
                LOW, HIGH, LOW, TARGET), reached ? "all at %d instances %.1f s after the step up, back at 1 %.1f s "
                .formatted(size, up, down) + "after the step down (%d s of it the scale-down delay)".formatted(
                DOWN_DELAY_S) : "not every LRP reached its size (up %.1f s, down %.1f s)".formatted(up, down),
                "all reach their computed size; 0 flaps", reached && flaps == 0,
                "%d flaps (direction changes < %d s apart) in %,d scales; %.0f us autoscaler CPU per decision (%,.0f "
                        .formatted(flaps, DOWN_DELAY_S, scales, cpuMicros, decided)
                        + "decisions); a tick over %,d LRPs %.0f ms wall on average while they scaled (each scale "
                        .formatted(lrps, tickMs) + "one update transaction), %.0f ms with nothing to change"
                        .formatted(quietTickMs)));
        return figures;
    }

    /** The mean wall time of the next two ticks, once every LRP is at its size: read, decide, record. */
    private static double quietTick(Timer ticks, Duration timeout) {
        long count = ticks.count();
        double total = ticks.totalTime(TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ticks.count() < count + 2 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(100_000_000L);
        }
        return (ticks.totalTime(TimeUnit.MILLISECONDS) - total) / Math.max(1, ticks.count() - count);
    }

    private void desire(int lrps, int concurrency) throws InterruptedException {
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = BenchThreads.pool(concurrency);
        for (int i = 0; i < lrps; i++) {
            String guid = PREFIX + "%05d".formatted(i);
            pool.submit(() -> {
                String body = ReceptorClient.desiredLrp(guid, 1, 32).replaceFirst("\\{", ("{\"autoscaling\": "
                        + "{\"min_instances\": 1, \"max_instances\": %d, \"target_cpu_percent\": %d, "
                        + "\"scale_up_delay\": 0, \"scale_down_delay\": %d},").formatted(MAX, TARGET, DOWN_DELAY_S));
                if (client.send("POST", "/v1/desired_lrps", body).statusCode() != 201) {
                    failed.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.MINUTES);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " autoscaled desires failed");
        }
    }

    /** Every simulated cell of the cluster's reps: each LRP's demand is {@code percent} of a core in all. */
    private void setLoad(int percent) {
        cluster.reps().forEach(rep -> rep.getBean(SimulatedExecutorFactory.class).load().setCpu(PREFIX, percent));
    }

    /** Seconds until every LRP wants {@code size} and runs it, or NaN after the timeout. */
    private double awaitSize(int lrps, int size, Duration timeout) {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long sized = db.count("SELECT count(*) FROM desired_lrps WHERE process_guid LIKE 'as-%' AND instances = ?",
                    size);
            long running = db.count("SELECT count(*) FROM actual_lrps WHERE process_guid LIKE 'as-%' AND state = "
                    + "'RUNNING'");
            long all = db.count("SELECT count(*) FROM actual_lrps WHERE process_guid LIKE 'as-%'");
            if (sized == lrps && running == (long) lrps * size && all == running) {
                return (System.nanoTime() - start) / 1e9;
            }
            LockSupport.parkNanos(250_000_000L);
        }
        return Double.NaN;
    }

    private void awaitCount(String what, String sql, long expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (db.count(sql) < expected) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + ": not " + expected + " within " + timeout);
            }
            LockSupport.parkNanos(250_000_000L);
        }
    }

    /** Direction changes of one LRP's scales less than the stabilisation window apart, from the audit rows. */
    private long flaps(double since) {
        return db.count("""
                WITH s AS (
                    SELECT process_guid, at, sign((m[2])::int - (m[1])::int) AS dir
                    FROM (SELECT process_guid, at, regexp_match(reason, 'autoscaled from (\\d+) to (\\d+)') AS m
                          FROM lrp_events WHERE actor_service = 'autoscaler' AND at >= to_timestamp(?)) x
                    WHERE m IS NOT NULL),
                t AS (
                    SELECT dir, at, lag(dir) OVER w AS prev_dir, lag(at) OVER w AS prev_at
                    FROM s WINDOW w AS (PARTITION BY process_guid ORDER BY at))
                SELECT count(*) FROM t WHERE prev_dir IS NOT NULL AND dir <> prev_dir
                    AND at - prev_at < make_interval(secs => ?)""", since, DOWN_DELAY_S);
    }
}
