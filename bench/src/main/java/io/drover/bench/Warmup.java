package io.drover.bench;

import java.time.Duration;

/**
 * Before P1, the same work on the same cluster: desire, wait for every instance RUNNING, delete, wait for every row to
 * go. A cluster serves for days, so P0 is what an instance costs one that has run before, not the JIT compiling the
 * desire, auction and claim paths for the first time (a quarter of the JVM's CPU in a cold quick P1). The warm-up sends
 * as many desires (and deletes) as P1, with one instance each: code that runs once per request must be called as often
 * as P1 calls it before the JIT compiles it fully (a tenth as many desires left the receptor's request path in its
 * profiled, unoptimised form through P1: 3.9 ms of CPU per desire against 1.3 warm). The cold cost is not hidden: this
 * warm-up reports its own CPU per instance, the first instances a fresh cluster runs.
 */
final class Warmup {

    static final String PREFIX = "warmup-";
    private static final Duration POLL = Duration.ofMillis(500);

    private final ReceptorClient client;
    private final Database db;

    Warmup(ReceptorClient client, Database db) {
        this.client = client;
        this.db = db;
    }

    Figure run(int lrps, int instances, int concurrency, Duration timeout) throws InterruptedException {
        long total = (long) lrps * instances;
        CpuAccount before = CpuAccount.now();
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        int failed = BenchThreads.inParallel(lrps, concurrency, i -> client.send("POST", "/v1/desired_lrps",
                ReceptorClient.desiredLrp(PREFIX + i, instances, 64)).statusCode() == 201, Duration.ofMinutes(5));
        long running = db.awaitCount(n -> n >= total, deadline, POLL, "SELECT count(*) FROM actual_lrps "
                + "WHERE state = 'RUNNING' AND process_guid LIKE ?", PREFIX + "%");
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount.Usage cold = CpuAccount.now().usage(before);
        failed += BenchThreads.inParallel(lrps, concurrency, i -> client.send("DELETE", "/v1/desired_lrps/" + PREFIX
                + i, null).statusCode() == 204, Duration.ofMinutes(5));
        long left = db.awaitCount(n -> n == 0, deadline, POLL, "SELECT count(*) FROM actual_lrps "
                + "WHERE process_guid LIKE ?", PREFIX + "%");
        double perInstance = 1000 * cold.drover() / Math.max(1, running);
        boolean done = running >= total && left == 0 && failed == 0;
        return new Figure("W warm-up %,d x %d, then deleted (cold JVM)".formatted(lrps, instances),
                done ? "%,d RUNNING in %.1f s, %.2f core-ms per instance".formatted(running, seconds, perInstance)
                        : "%,d of %,d RUNNING, %,d rows left, %d requests failed".formatted(running, total, left,
                                failed),
                "reported", done,
                ("the first instances this cluster runs, before P0-P1 measure a warm one: JVM %.2f core-ms (%s), "
                        + "PostgreSQL %.2f core-ms per instance").formatted(
                                1000 * cold.droverJvm() / Math.max(1, running), cold.vmSplit(running),
                                1000 * cold.postgres() / Math.max(1, running)));
    }
}
