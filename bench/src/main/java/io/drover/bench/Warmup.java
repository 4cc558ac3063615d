package io.drover.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Before P1, the same work on the same cluster, several rounds of it: desire, wait for every instance RUNNING, delete,
 * wait for every row to go. A cluster serves for days, so P0 is what an instance costs one that has run before, not the
 * JIT compiling the desire, auction and claim paths for the first time (a quarter of the JVM's CPU in a cold quick P1).
 * A round sends as many desires (and deletes) as P1, with one instance each: code that runs once per request must be
 * called as often as P1 calls it before the JIT compiles it fully (a tenth as many desires left the receptor's request
 * path in its profiled, unoptimised form through P1: 3.9 ms of CPU per desire against 1.3 warm). And one round is not
 * enough: the one JVM holds four services, a broker and the cells, some 19,000 methods the JIT compiles with C1 and
 * 5,000 and more it then compiles again with C2, and the C2 queue drains only after minutes of load (docs/performance.md,
 * 2026-12-02 08:45). After one round, a fifth of P1's CPU samples still ran in C1's profiling code. The cold cost is not
 * hidden: the first round reports its own CPU per instance, the first instances a fresh cluster runs.
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

    Figure run(int rounds, int lrps, int instances, int concurrency, Duration timeout) throws InterruptedException {
        Round cold = round(1, rounds, lrps, instances, concurrency, timeout);
        List<Round> warmer = new ArrayList<>();
        for (int i = 2; i <= rounds && cold.done(); i++) {
            warmer.add(round(i, rounds, lrps, instances, concurrency, timeout));
        }
        boolean done = cold.done() && warmer.stream().allMatch(Round::done);
        String later = warmer.stream().map(r -> r.done() ? "%.2f (JIT %.2f)".formatted(r.perInstance(),
                r.jitPerInstance()) : r.figure()).collect(Collectors.joining(", "));
        return new Figure("W warm-up %d x (%,d x %d, then deleted)".formatted(rounds, lrps, instances),
                cold.figure(), "reported", done,
                ("the first instances this cluster runs, before P0-P1 measure a warm one: JVM %.2f core-ms (%s), "
                        + "PostgreSQL %.2f core-ms per instance; the later rounds, core-ms per instance: %s")
                        .formatted(1000 * cold.usage().droverJvm() / Math.max(1, cold.running()),
                                cold.usage().vmSplit(cold.running()),
                                1000 * cold.usage().postgres() / Math.max(1, cold.running()),
                                later.isEmpty() ? "none" : later));
    }

    private Round round(int round, int rounds, int lrps, int instances, int concurrency, Duration timeout)
            throws InterruptedException {
        long total = (long) lrps * instances;
        Console.step("W warm-up round %d of %d: %,d desires of %d instance%s, then deleted".formatted(round, rounds,
                lrps, instances, instances == 1 ? "" : "s"));
        CpuAccount before = CpuAccount.now();
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        int failed;
        long running;
        try (Console.Progress desires = Console.progress("desires", lrps, "answered")) {
            failed = BenchThreads.inParallel(lrps, concurrency, i -> client.send("POST", "/v1/desired_lrps",
                    ReceptorClient.desiredLrp(PREFIX + i, instances, 64)).statusCode() == 201, Duration.ofMinutes(5),
                    desires);
        }
        try (Console.Progress progress = Console.progress("instances", total, "RUNNING")) {
            running = db.awaitCount(n -> n >= total, deadline, POLL, progress, "SELECT count(*) FROM actual_lrps "
                    + "WHERE state = 'RUNNING' AND process_guid LIKE ?", PREFIX + "%");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount.Usage usage = CpuAccount.now().usage(before);
        try (Console.Progress deletes = Console.progress("deletes", lrps, "answered")) {
            failed += BenchThreads.inParallel(lrps, concurrency, i -> client.send("DELETE", "/v1/desired_lrps/"
                    + PREFIX + i, null).statusCode() == 204, Duration.ofMinutes(5), deletes);
        }
        long left;
        try (Console.Progress progress = Console.countdown("rows", total, "removed")) {
            left = db.awaitCount(n -> n == 0, deadline, POLL, progress,
                    "SELECT count(*) FROM actual_lrps WHERE process_guid LIKE ?", PREFIX + "%");
        }
        Round r = new Round(total, running, left, failed, seconds, usage);
        Console.detail(r.figure() + "; other processes on this machine " + usage.othersShare());
        return r;
    }

    /** One round: its CPU is that of the desires up to the last instance RUNNING (the deletes are not in it). */
    private record Round(long total, long running, long left, int failed, double seconds, CpuAccount.Usage usage) {

        boolean done() {
            return running >= total && left == 0 && failed == 0;
        }

        double perInstance() {
            return 1000 * usage.drover() / Math.max(1, running);
        }

        double jitPerInstance() {
            return 1000 * usage.jit() / Math.max(1, running);
        }

        String figure() {
            return done() ? "%,d RUNNING in %.1f s, %.2f core-ms per instance".formatted(running, seconds,
                    perInstance()) : "%,d of %,d RUNNING, %,d rows left, %d requests failed".formatted(running, total,
                            left, failed);
        }
    }
}
