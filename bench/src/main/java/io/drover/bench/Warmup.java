package io.drover.bench;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Before P1, the same work at a tenth of its scale on the same cluster: desire, wait for every instance RUNNING, delete,
 * wait for every row to go. A cluster serves for days, so P0 is what an instance costs one that has run before, not the
 * JIT compiling the desire, auction and claim paths for the first time (a quarter of the JVM's CPU in a cold quick P1).
 * The cold cost is not hidden: this warm-up reports its own CPU per instance, the first instances a fresh cluster runs.
 */
final class Warmup {

    static final String PREFIX = "warmup-";

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
        AtomicInteger failed = new AtomicInteger();
        each(lrps, concurrency, guid -> client.send("POST", "/v1/desired_lrps",
                ReceptorClient.desiredLrp(guid, instances, 64)).statusCode() == 201, failed);
        long running = await("SELECT count(*) FROM actual_lrps WHERE state = 'RUNNING' AND process_guid LIKE '"
                + PREFIX + "%'", n -> n >= total, deadline);
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount.Usage cold = CpuAccount.now().usage(before);
        each(lrps, concurrency, guid -> client.send("DELETE", "/v1/desired_lrps/" + guid, null).statusCode() == 204,
                failed);
        long left = await("SELECT count(*) FROM actual_lrps WHERE process_guid LIKE '" + PREFIX + "%'", n -> n == 0,
                deadline);
        double perInstance = 1000 * cold.drover() / Math.max(1, running);
        boolean done = running >= total && left == 0 && failed.get() == 0;
        return new Figure("W warm-up %,d x %d, then deleted (cold JVM)".formatted(lrps, instances),
                done ? "%,d RUNNING in %.1f s, %.2f core-ms per instance".formatted(running, seconds, perInstance)
                        : "%,d of %,d RUNNING, %,d rows left, %d requests failed".formatted(running, total, left,
                                failed.get()),
                "reported", done,
                ("the first instances this cluster runs, before P0-P1 measure a warm one: JVM %.2f core-ms (%s), "
                        + "PostgreSQL %.2f core-ms per instance").formatted(
                                1000 * cold.droverJvm() / Math.max(1, running), cold.vmSplit(running),
                                1000 * cold.postgres() / Math.max(1, running)));
    }

    private void each(int lrps, int concurrency, java.util.function.Predicate<String> request, AtomicInteger failed)
            throws InterruptedException {
        ExecutorService pool = BenchThreads.pool(concurrency);
        for (int i = 0; i < lrps; i++) {
            String guid = PREFIX + i;
            pool.submit(() -> {
                if (!request.test(guid)) {
                    failed.incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.MINUTES);
    }

    private long await(String countSql, java.util.function.LongPredicate done, long deadline)
            throws InterruptedException {
        long n = db.count(countSql);
        while (!done.test(n) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            n = db.count(countSql);
        }
        return n;
    }
}
