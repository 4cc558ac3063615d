package io.drover.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** P1: desire many LRPs through the REST API at once and time until every instance is RUNNING. */
final class DesireAtScale {

    private final ReceptorClient client;
    private final Database db;

    DesireAtScale(ReceptorClient client, Database db) {
        this.client = client;
        this.db = db;
    }

    /**
     * Runs P1. The figure is taken at {@code timeout}; when not everything is RUNNING by then, it keeps waiting up to
     * {@code settle} more so that the scenarios after it measure a converged cluster, not P1's backlog.
     */
    Figure run(int lrps, int instances, int concurrency, Duration timeout, Duration settle, Path recording)
            throws InterruptedException, IOException {
        long total = (long) lrps * instances;
        CpuAccount cpuBefore = CpuAccount.now();
        Profile profile = Profile.start();
        long start = System.nanoTime();
        Desires desires = submit(lrps, instances, concurrency, start);
        long running = awaitRunning(total, start + timeout.toNanos());
        double seconds = (System.nanoTime() - start) / 1e9;
        String cpu = CpuAccount.now().since(cpuBefore);
        String samples;
        try (profile) {
            samples = profile.stopAndSummarize(recording);
        }
        String settled = "";
        if (running < total) {
            long all = awaitRunning(total, System.nanoTime() + settle.toNanos());
            settled = all >= total ? "; all RUNNING after %.0f s".formatted((System.nanoTime() - start) / 1e9)
                    : "; still %,d not RUNNING after %.0f s".formatted(total - all, (System.nanoTime() - start) / 1e9);
        }
        desires.pool().awaitTermination(1, TimeUnit.MINUTES);
        double[] latency = db.doubles("SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                + "coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0) FROM ("
                + " SELECT extract(epoch FROM (min(e.at) - d.created_at)) * 1000 AS ms"
                + " FROM lrp_events e JOIN desired_lrps d ON d.process_guid = e.process_guid"
                + " WHERE e.entity = 'actual' AND e.to_state = 'RUNNING'"
                + " GROUP BY e.process_guid, e.instance_index, d.created_at) t");
        boolean all = running >= total;
        double targetSeconds = total * 60.0 / 100_000;
        String figure = all ? "%,d RUNNING in %.1f s (%,.0f instances/s)".formatted(running, seconds, running / seconds)
                : "only %,d of %,d RUNNING after %.0f s".formatted(running, total, seconds);
        return new Figure("P1 desire %,d x %d onto the cells".formatted(lrps, instances), figure,
                "all RUNNING <= %.0f s".formatted(targetSeconds), all && seconds <= targetSeconds,
                ("desire->RUNNING p50 %.0f ms, p99 %.0f ms%s; %,d desires accepted in %.1f s, %d failed; %s; %s; %s")
                        .formatted(latency[0], latency[1], settled, lrps - desires.failed().get(),
                                desires.acceptedSeconds(), desires.failed().get(), stages(), cpu, samples));
    }

    /** POSTs every desired LRP from {@code concurrency} clients at once. */
    private Desires submit(int lrps, int instances, int concurrency, long start) {
        Desires desires = new Desires(Executors.newFixedThreadPool(concurrency), new AtomicInteger(), new AtomicLong());
        for (int i = 0; i < lrps; i++) {
            String guid = "bench-" + i;
            desires.pool().submit(() -> {
                int status = client.send("POST", "/v1/desired_lrps", ReceptorClient.desiredLrp(guid, instances, 64))
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

    private long awaitRunning(long total, long deadline) throws InterruptedException {
        long running = 0;
        while (running < total && System.nanoTime() < deadline) {
            Thread.sleep(250);
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
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY placed - created), 0),"
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY claimed - placed), 0),"
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY running - claimed), 0) FROM ("
                + " SELECT extract(epoch FROM min(at) FILTER (WHERE from_state IS NULL)) * 1000 AS created,"
                + "  extract(epoch FROM min(at) FILTER (WHERE reason LIKE 'placed on %')) * 1000 AS placed,"
                + "  extract(epoch FROM min(at) FILTER (WHERE to_state = 'CLAIMED')) * 1000 AS claimed,"
                + "  extract(epoch FROM min(at) FILTER (WHERE to_state = 'RUNNING')) * 1000 AS running"
                + " FROM lrp_events WHERE entity = 'actual' GROUP BY process_guid, instance_index) t");
        double[] relay = db.doubles("SELECT"
                + " coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0),"
                + " coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0), count(*) FROM ("
                + " SELECT extract(epoch FROM (sent_at - created_at)) * 1000 AS ms FROM outbox"
                + " WHERE sent_at IS NOT NULL) t");
        return ("median per step: created->placed %.0f ms, placed->claimed %.0f ms, claimed->RUNNING %.0f ms; "
                + "outbox row to Kafka: p50 %.0f ms, p99 %.0f ms over %,.0f messages").formatted(p50[0], p50[1],
                        p50[2], relay[0], relay[1], relay[2]);
    }

    static List<String> guids(int lrps) {
        return java.util.stream.IntStream.range(0, lrps).mapToObj(i -> "bench-" + i).toList();
    }
}
