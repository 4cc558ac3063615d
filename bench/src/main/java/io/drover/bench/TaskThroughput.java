package io.drover.bench;

import java.time.Duration;
import java.util.List;

/**
 * P6: submit many tasks through the REST API at once onto the simulated cells of the running cluster (each simulated
 * task runs its action abstractly, {@code drover.rep.simulated.task-step} per run) and time until every one is
 * COMPLETED; tasks completed per second, and the CPU per task of this JVM (every service) and PostgreSQL.
 */
final class TaskThroughput {

    static final String PREFIX = "p6-";

    private final ReceptorClient client;
    private final Database db;

    TaskThroughput(ReceptorClient client, Database db) {
        this.client = client;
        this.db = db;
    }

    List<Figure> run(int tasks, int concurrency, Duration timeout) throws InterruptedException {
        CpuAccount cpuBefore = CpuAccount.now();
        long start = System.nanoTime();
        int refused = BenchThreads.inParallel(tasks, concurrency,
                i -> client.send("POST", "/v1/tasks", task(PREFIX + i)).statusCode() == 201, Duration.ofMinutes(10));
        long completed = db.awaitCount(n -> n >= tasks, start + timeout.toNanos(), Duration.ofMillis(250),
                "SELECT count(*) FROM tasks WHERE state = 'COMPLETED' AND task_guid LIKE ?", PREFIX + "%");
        double seconds = (System.nanoTime() - start) / 1e9;
        CpuAccount cpuAfter = CpuAccount.now();
        CpuAccount.Usage usage = cpuAfter.usage(cpuBefore);
        double[] latency = db.doubles("SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                + "coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0) FROM (SELECT extract(epoch FROM "
                + "first_completed_at - created_at) * 1000 AS ms FROM tasks WHERE task_guid LIKE ? "
                + "AND first_completed_at IS NOT NULL) t", PREFIX + "%");
        long failed = db.count("SELECT count(*) FROM tasks WHERE task_guid LIKE ? AND failed", PREFIX + "%");
        boolean all = completed >= tasks;
        double perTask = 1000 * usage.drover() / Math.max(1, completed);
        String figure = all ? "%,d completed in %.1f s (%,.0f tasks/s), %.2f core-ms per task".formatted(completed,
                seconds, completed / seconds, perTask)
                : "only %,d of %,d completed after %.0f s".formatted(completed, tasks, seconds);
        return List.of(new Figure("P6 %,d tasks onto the cells".formatted(tasks), figure, "reported", all,
                ("submit->COMPLETED p50 %.0f ms, p99 %.0f ms; %,d refused, %,d failed; CPU per task: JVM %.2f core-ms "
                        + "(%s), PostgreSQL %.2f core-ms, whole machine %.2f "
                        + "core-ms; %s").formatted(latency[0], latency[1], refused, failed,
                                1000 * usage.droverJvm() / Math.max(1, completed),
                                usage.vmSplit(completed),
                                1000 * usage.postgres() / Math.max(1, completed),
                                1000 * usage.machine() / Math.max(1, completed), cpuAfter.since(cpuBefore))));
    }

    static String task(String guid) {
        return """
                {"task_guid": "%s", "domain": "bench", "rootfs": "preloaded:host", "memory_mb": 16, "disk_mb": 16,
                 "action": {"run": {"path": "sh", "args": ["-c", "echo done > result.txt"]}},
                 "result_file": "result.txt"}""".formatted(guid);
    }
}
