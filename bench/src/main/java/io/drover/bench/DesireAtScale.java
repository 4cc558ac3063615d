package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.RunningCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.ConfigurableApplicationContext;

/** P1: desire many LRPs through the REST API at once and time until every instance is RUNNING. */
final class DesireAtScale {

    private final ReceptorClient client;
    private final Database db;
    private final RunningCluster cluster;

    DesireAtScale(ReceptorClient client, Database db, RunningCluster cluster) {
        this.client = client;
        this.db = db;
        this.cluster = cluster;
    }

    /**
     * Runs P1. The figure is taken at {@code timeout}; when not everything is RUNNING by then, it keeps waiting up to
     * {@code settle} more so that the scenarios after it measure a converged cluster, not P1's backlog.
     */
    List<Figure> run(BenchMain.Scale scale, int concurrency, Path recording, double postgresLimit)
            throws InterruptedException, IOException {
        int lrps = scale.lrps();
        int instances = scale.instances();
        Duration timeout = scale.p1Timeout();
        Duration settle = scale.p1Timeout();
        long total = scale.p1Instances();
        long writesBefore = rowWrites();
        StatementCosts statements = new StatementCosts(db);
        statements.reset();
        CpuAccount cpuBefore = CpuAccount.now();
        Profile profile = Profile.start();
        Console.step("P1: %,d desires of %d instances from %d clients; waiting for %,d RUNNING".formatted(lrps,
                instances, concurrency, total));
        long start = System.nanoTime();
        Desires desires = submit(lrps, instances, concurrency, start);
        Console.Progress progress = Console.progress("P1", total, "RUNNING");
        long running = awaitRunning(total, start + timeout.toNanos(), progress);
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount cpuAfter = CpuAccount.now();
        String cpu = cpuAfter.since(cpuBefore);
        String byStatement = statements.rowUpdates() + "; " + statements.top(8, running);
        CpuAccount.Usage usage = cpuAfter.usage(cpuBefore);
        String postgresByRole = cpuAfter.postgresByRole(cpuBefore, running);
        double writesPerSecond = (rowWrites() - writesBefore) / seconds;
        String samples;
        try (profile) {
            samples = profile.stopAndSummarize(recording);
        }
        String settled = "";
        if (running < total) {
            Console.detail("P1's figure is taken (%,d of %,d RUNNING after %.0f s); waiting up to %s for the rest"
                    .formatted(running, total, seconds, Console.duration(settle.toSeconds())));
            long all = awaitRunning(total, System.nanoTime() + settle.toNanos(), progress);
            settled = all >= total ? "; all RUNNING after %.0f s".formatted((System.nanoTime() - start) / 1e9)
                    : "; still %,d not RUNNING after %.0f s".formatted(total - all, (System.nanoTime() - start) / 1e9);
        }
        progress.close();
        desires.pool().awaitTermination(1, TimeUnit.MINUTES);
        double[] latency = db.doubles("SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                + "coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0) FROM ("
                + " SELECT extract(epoch FROM (min(e.at) - d.created_at)) * 1000 AS ms"
                + " FROM lrp_events e JOIN desired_lrps d ON d.process_guid = e.process_guid"
                + " WHERE e.entity = 'actual' AND e.to_state = 'RUNNING'"
                + " GROUP BY e.process_guid, e.instance_index, d.created_at) t");
        boolean all = running >= total;
        double targetSeconds = scale.p1TargetSeconds();
        String figure = all ? "%,d RUNNING in %.1f s (%,.0f instances/s)".formatted(running, seconds, running / seconds)
                : "only %,d of %,d RUNNING after %.0f s".formatted(running, total, seconds);
        Figure p1 = new Figure("P1 desire %,d x %d onto the cells".formatted(lrps, instances), figure,
                "all RUNNING <= %.0f s".formatted(targetSeconds), all && seconds <= targetSeconds,
                ("desire->RUNNING p50 %.0f ms, p99 %.0f ms%s; %,d desires accepted in %.1f s, %d failed (%,d "
                        + "creates sent again after a 503, as its Retry-After asks, since the cluster started); "
                        + "PostgreSQL row writes %,.0f/s = %.0f %% of what this machine's PostgreSQL writes alone "
                        + "(%,.0f rows/s of batched versioned updates, measured before P1); %s; %s; %s")
                        .formatted(latency[0], latency[1], settled, lrps - desires.failed().get(),
                                desires.acceptedSeconds(), desires.failed().get(), client.resentAfter503(),
                                writesPerSecond, 100 * writesPerSecond / postgresLimit, postgresLimit, stages(), cpu,
                                samples));
        return List.of(cpuPerInstance(usage, running, postgresByRole, byStatement, scale), p1);
    }

    /** P0, the headline: core-ms of this JVM and PostgreSQL per instance that reached RUNNING during P1. */
    private static Figure cpuPerInstance(CpuAccount.Usage usage, long running, String postgresByRole,
            String byStatement, BenchMain.Scale scale) {
        double perInstance = 1000 * usage.drover() / Math.max(1, running);
        boolean machineWithin = 1000 * usage.machine() / Math.max(1, running) <= scale.p0MachineTarget();
        return new Figure("P0 CPU per instance (P1)", "%.2f core-ms per instance".formatted(perInstance),
                scale.p0TargetText(), perInstance <= scale.p0Target() && machineWithin,
                ("JVM %.2f core-ms (%s%s), PostgreSQL %.2f core-ms (by whom it served: %s); the benchmark's own "
                        + "clients in the same JVM %.2f core-ms, left out; the whole machine %.2f core-ms (the rest is "
                        + "other processes); "
                        + "allocated %,.0f bytes per instance (every thread of this JVM but the clients', HotSpot's "
                        + "own count%s); %s")
                        .formatted(1000 * usage.droverJvm() / Math.max(1, running),
                                usage.vmSplit(running), usage.services() > 0 ? "; the services' own JVMs %.2f, their "
                                        .formatted(1000 * usage.services() / Math.max(1, running))
                                        + "GC and JIT included" : "",
                                1000 * usage.postgres() / Math.max(1, running), postgresByRole,
                                1000 * usage.bench() / Math.max(1, running),
                                1000 * usage.machine() / Math.max(1, running),
                                (double) usage.allocated() / Math.max(1, running),
                                usage.services() > 0 ? "; the services' own JVMs not counted" : "", byStatement));
    }

    /** Rows inserted, updated and deleted in every table so far (PostgreSQL's statistics, flushed about once a second). */
    private long rowWrites() {
        return db.count("SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables");
    }

    /** POSTs every desired LRP from {@code concurrency} clients at once. */
    private Desires submit(int lrps, int instances, int concurrency, long start) {
        Desires desires = new Desires(BenchThreads.pool(concurrency), new AtomicInteger(), new AtomicLong());
        for (int i = 0; i < lrps; i++) {
            String guid = "bench-" + i;
            desires.pool().submit(() -> {
                int status = client.create("/v1/desired_lrps", ReceptorClient.desiredLrp(guid, instances, 64))
                        .statusCode();
                if (status != 201) {
                    desires.failed().incrementAndGet();
                }
                desires.lastAnswer().accumulateAndGet(System.nanoTime() - start, Math::max);
            });
        }
        desires.pool().shutdown();
        return desires;
    }

    private long awaitRunning(long total, long deadline, Console.Progress progress) throws InterruptedException {
        long running = 0;
        while (running < total && System.nanoTime() < deadline) {
            progress.update(running);
            // Counting 100,000 rows takes a core from the cluster for tens of milliseconds (P0 leaves the benchmark's
            // backend out, the machine does not have it back): poll every 2 s (5 s for a million), and every 250 ms
            // for the last tenth.
            Thread.sleep(running < total * 0.9 ? (total > 100_000 ? 5_000 : 2_000) : 250);
            running = db.count("SELECT count(*) FROM actual_lrps WHERE state = 'RUNNING'");
        }
        return running;
    }

    private record Desires(ExecutorService pool, AtomicInteger failed, AtomicLong lastAnswer) {

        double acceptedSeconds() {
            return lastAnswer.get() / 1e9;
        }
    }

    /** Median time each instance spent in each step, to show which stage of the pipeline is behind. */
    private String stages() {
        double[] p50 = db.doubles("SELECT"
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY claimed - created), 0),"
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY running - claimed), 0) FROM ("
                + " SELECT extract(epoch FROM min(at) FILTER (WHERE from_state IS NULL)) * 1000 AS created,"
                + "  extract(epoch FROM min(at) FILTER (WHERE to_state = 'CLAIMED')) * 1000 AS claimed,"
                + "  extract(epoch FROM min(at) FILTER (WHERE to_state = 'RUNNING')) * 1000 AS running"
                + " FROM lrp_events WHERE entity = 'actual' AND process_guid LIKE 'bench-%'"
                + " GROUP BY process_guid, instance_index) t");
        double[] repairs = db.doubles("SELECT count(*) FILTER (WHERE reason = 'converger: unclaimed too long'),"
                + " count(*) FILTER (WHERE reason = 'converger: cell presence expired')"
                + " FROM lrp_events WHERE entity = 'actual' AND process_guid LIKE 'bench-%'");
        return ("median per step: created->claimed (receptor, start request, auction, auction result, claim) %.0f ms, "
                + "claimed->RUNNING %.0f ms; converger repairs: %,d re-auctioned as stale (rule 3), %,d of lost cells "
                + "(rule 2); %s").formatted(p50[0], p50[1], (long) repairs[0], (long) repairs[1], relayDelay());
    }

    /** How long rows waited for the relay, per relayed batch (the oldest row of each), over every service's relay. */
    private String relayDelay() {
        if (!(cluster instanceof LocalCluster local)) {
            return "relay delay: only in one JVM"; // the meters live in the services' processes
        }
        long batches = 0;
        double totalMs = 0;
        double maxMs = 0;
        // whichever JVM part took the relay lock first relays: a service's or a rep's
        for (ConfigurableApplicationContext service : java.util.stream.Stream.concat(local.services().stream(),
                local.reps().stream()).toList()) {
            Timer timer = service.getBean(MeterRegistry.class).find("drover.outbox.relay.delay").timer();
            if (timer != null) {
                batches += timer.count();
                totalMs += timer.totalTime(TimeUnit.MILLISECONDS);
                maxMs = Math.max(maxMs, timer.max(TimeUnit.MILLISECONDS));
            }
        }
        return "relay since the cluster started: %,d batches, oldest row waited %.0f ms on average (max %.0f ms recently)".formatted(batches,
                batches == 0 ? 0 : totalMs / batches, maxMs);
    }

    static List<String> guids(int lrps) {
        return java.util.stream.IntStream.range(0, lrps).mapToObj(i -> "bench-" + i).toList();
    }
}
