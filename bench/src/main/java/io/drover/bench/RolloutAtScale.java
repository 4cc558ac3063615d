package io.drover.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * P7: roll many LRPs to a new definition at once (SPEC 14) and time until every deployment is SUCCESSFUL. The peak
 * start rate (claims per second) and the peak number of twins (old instances still serving while their slots start
 * anew) show whether the rollout is paced: at most max_surge slots per LRP in flight, however many LRPs roll.
 */
final class RolloutAtScale {

    /** The default surge: 25 % of an LRP's instances, rounded up. */
    private static final double SURGE_SHARE = 0.25;

    private final ReceptorClient client;
    private final Database db;

    RolloutAtScale(ReceptorClient client, Database db) {
        this.client = client;
        this.db = db;
    }

    Figure run(List<String> guids, int instances, int concurrency, Duration timeout) throws InterruptedException {
        Console.step("P7: %,d deployments at once from %d clients; waiting for every one SUCCESSFUL"
                .formatted(guids.size(), concurrency));
        double startedAt = db.doubles("SELECT extract(epoch FROM clock_timestamp())")[0];
        long start = System.nanoTime();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = BenchThreads.pool(concurrency);
        String body = """
                {"action": {"run": {"path": "sleep", "args": ["100001"]}}, "min_healthy_time": 1}""";
        for (String guid : guids) {
            pool.submit(() -> {
                if (client.send("POST", "/v1/desired_lrps/" + guid + "/deployments", body).statusCode() != 201) {
                    failed.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        long peakTwins = 0;
        long peakStopping = 0;
        long done = 0;
        long deadline = start + timeout.toNanos();
        Console.Progress progress = Console.progress("P7", guids.size(), "deployments SUCCESSFUL");
        while (done < guids.size() - failed.get() && System.nanoTime() < deadline) {
            progress.update(done);
            Thread.sleep(250);
            // a twin asked to stop has left the API and no longer counts against max_surge (as a terminating pod
            // does not count against a Kubernetes Deployment's maxSurge); it runs on for its deregistration delay
            peakTwins = Math.max(peakTwins, db.count("SELECT count(*) FROM evacuating_lrps WHERE kept_for = "
                    + "'deployment' AND stop_requested IS NULL"));
            peakStopping = Math.max(peakStopping, db.count("SELECT count(*) FROM evacuating_lrps WHERE kept_for = "
                    + "'deployment' AND stop_requested IS NOT NULL"));
            done = db.count("SELECT count(*) FROM deployments WHERE state = 'SUCCESSFUL' AND "
                    + "created_at >= to_timestamp(?)", startedAt);
        }
        progress.close();
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.awaitTermination(1, TimeUnit.MINUTES);
        double peakStarts = db.doubles("SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM lrp_events WHERE "
                + "entity = 'actual' AND to_state = 'CLAIMED' AND at >= to_timestamp(?) GROUP BY date_trunc('second', "
                + "at)) t", startedAt)[0];
        long surgeBound = (long) guids.size() * (long) Math.ceil(instances * SURGE_SHARE);
        boolean all = done >= guids.size();
        long total = (long) guids.size() * instances;
        String figure = all ? "%,d instances of %,d LRPs rolled in %.1f s (%,.0f instances/s)".formatted(total,
                guids.size(), seconds, total / seconds)
                : "only %,d of %,d deployments SUCCESSFUL after %.0f s".formatted(done, guids.size(), seconds);
        return new Figure("P7 rollout %,d x %d at once".formatted(guids.size(), instances), figure,
                "all SUCCESSFUL; twins <= sum of max_surge (%,d)".formatted(surgeBound),
                all && peakTwins <= surgeBound,
                ("peak start rate %,.0f claims/s; peak twins serving %,d; peak twins asked to stop, still stopping "
                        + "%,d; %d deployment requests failed").formatted(peakStarts, peakTwins, peakStopping,
                                failed.get()));
    }
}
