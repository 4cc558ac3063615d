package io.drover.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * P6: submit many tasks through the REST API at once onto the simulated cells of the running cluster (each simulated
 * task runs its action abstractly, {@code drover.rep.simulated.task-step} per run), each with a completion callback to
 * a recording server ({@link CallbackRecorder}), and time until every one is COMPLETED and its callback delivered. The
 * figures: tasks completed per second, CPU per task (this JVM's services and PostgreSQL, from the first submit until
 * the last callback, so the callbacks and the tasks' resolution are in it), submit-to-COMPLETED and callback lag
 * percentiles, callbacks delivered per task completed, and P1's profile (CPU by thread group and PostgreSQL client,
 * statements by executor time, JFR by library), so that a missed target says where the time went.
 *
 * <p>Warm rounds of the same size (the full run's 10,000 at most) come first, as P1's warm-up does for instances: a
 * cluster serves tasks for days, so P6 is what a task costs one that has run tasks before, not the JIT compiling the
 * task path for the first time. The first round's cost is reported beside the measured one.
 */
final class TaskThroughput {

    static final String PREFIX = "p6-";
    static final String WARM_PREFIX = "p6w";

    private final ReceptorClient client;
    private final Database db;

    TaskThroughput(ReceptorClient client, Database db) {
        this.client = client;
        this.db = db;
    }

    List<Figure> run(int tasks, int warmTasks, int concurrency, int warmRounds, Duration timeout, Path recording)
            throws InterruptedException, IOException {
        try (CallbackRecorder callbacks = new CallbackRecorder()) {
            List<String> warm = new ArrayList<>();
            for (int round = 1; round <= warmRounds; round++) {
                Round r = round(WARM_PREFIX + round + "-", warmTasks, concurrency, timeout, callbacks);
                warm.add(r.done(warmTasks) ? "%.2f (JIT %.2f)".formatted(r.perTask(), r.jitPerTask())
                        : "%,d of %,d called back".formatted(r.delivered(), warmTasks));
            }
            StatementCosts statements = new StatementCosts(db);
            statements.reset();
            CpuAccount cpuBefore = CpuAccount.now();
            Profile profile = Profile.start();
            Round measured = round(PREFIX, tasks, concurrency, timeout, callbacks);
            CpuAccount cpuAfter = CpuAccount.now();
            String samples;
            try (profile) {
                samples = profile.stopAndSummarize(recording);
            }
            return List.of(figure(measured, tasks, callbacks, cpuBefore, cpuAfter, statements, samples, warm));
        }
    }

    private Figure figure(Round r, int tasks, CallbackRecorder callbacks, CpuAccount before, CpuAccount after,
            StatementCosts statements, String samples, List<String> warm) {
        long completed = db.count("SELECT count(DISTINCT process_guid) FROM lrp_events WHERE entity = 'task' "
                + "AND to_state = 'COMPLETED' AND process_guid LIKE ?", PREFIX + "%");
        double[] latency = db.doubles("SELECT coalesce(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms), 0), "
                + "coalesce(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms), 0), coalesce(max(done), 0) FROM ("
                + "SELECT extract(epoch FROM min(at) FILTER (WHERE to_state = 'COMPLETED') - min(at)) * 1000 AS ms, "
                + "extract(epoch FROM min(at) FILTER (WHERE to_state = 'COMPLETED')) * 1000 AS done "
                + "FROM lrp_events WHERE entity = 'task' AND process_guid LIKE ? GROUP BY process_guid) t",
                PREFIX + "%");
        double completedSeconds = Math.max(0.001, (latency[2] - r.startedAtMillis()) / 1000);
        double[] lag = callbackLag(callbacks.firstArrivals());
        CpuAccount.Usage usage = after.usage(before);
        double perTask = 1000 * usage.drover() / Math.max(1, completed);
        boolean all = completed >= tasks && r.delivered() >= completed;
        String figure = all ? "%,d completed in %.1f s (%,.0f tasks/s), %.2f core-ms per task".formatted(completed,
                completedSeconds, completed / completedSeconds, perTask)
                : "only %,d of %,d completed, %,d called back after %.0f s".formatted(completed, tasks, r.delivered(),
                        r.seconds());
        String detail = ("submit->COMPLETED p50 %.0f ms, p99 %.0f ms; callbacks delivered %,d of %,d completed "
                + "(%.1f %%, %,d sent again), lag after completion p50 %.0f ms, p99 %.0f ms, all in %.1f s; %,d refused "
                + "(%,d creates of this client sent again after a 503, as its Retry-After asks); "
                + "CPU per task (first submit to last callback): JVM %.2f core-ms (%s), PostgreSQL %.2f core-ms (by "
                + "whom it served: %s), whole machine %.2f core-ms; the warm rounds before it, core-ms per task: %s; "
                + "%s; %s; %s; %s").formatted(latency[0], latency[1], r.delivered(), completed,
                        100.0 * r.delivered() / Math.max(1, completed), callbacks.repeats(PREFIX), lag[0], lag[1],
                        r.seconds(), r.refused(), client.resentAfter503(),
                        1000 * usage.droverJvm() / Math.max(1, completed),
                        usage.vmSplit(completed), 1000 * usage.postgres() / Math.max(1, completed),
                        after.postgresByRole(before, completed), 1000 * usage.machine() / Math.max(1, completed),
                        warm.isEmpty() ? "none" : String.join(", ", warm), statements.rowUpdates(),
                        statements.top(8, completed), after.since(before), samples);
        return new Figure("P6 %,d tasks onto the cells, with callbacks".formatted(tasks), figure,
                "<= 1.0 core-ms per task, every callback", all && perTask <= 1.0, detail);
    }

    /** One round: submit every task, then wait until every one has called back (it is then resolved and deleted). */
    private Round round(String prefix, int tasks, int concurrency, Duration timeout, CallbackRecorder callbacks)
            throws InterruptedException {
        Console.step("P6%s: %,d tasks from %d clients; waiting for every callback".formatted(
                prefix.equals(PREFIX) ? "" : " warm round " + prefix.substring(WARM_PREFIX.length(),
                        prefix.length() - 1), tasks, concurrency));
        CpuAccount before = CpuAccount.now();
        long startedAtMillis = System.currentTimeMillis();
        long start = System.nanoTime();
        int refused;
        try (Console.Progress submits = Console.progress("tasks", tasks, "submitted")) {
            refused = BenchThreads.inParallel(tasks, concurrency, i -> client.create("/v1/tasks",
                    task(prefix + i, callbacks.url())).statusCode() == 201, Duration.ofMinutes(10), submits);
        }
        long deadline = start + timeout.toNanos();
        try (Console.Progress progress = Console.progress("tasks", tasks - refused, "called back")) {
            while (callbacks.delivered(prefix) < tasks - refused && System.nanoTime() < deadline) {
                progress.update(callbacks.delivered(prefix));
                Thread.sleep(callbacks.delivered(prefix) < (tasks - refused) * 0.9 ? 1_000 : 100);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Round(startedAtMillis, seconds, refused, callbacks.delivered(prefix),
                CpuAccount.now().usage(before));
    }

    /** Callback arrival minus the task's completion, per task of P6, in ms: p50 and p99. */
    private double[] callbackLag(Map<String, Long> arrivals) {
        List<List<String>> completions = db.rows("SELECT process_guid, (extract(epoch FROM min(at)) * 1000)::bigint "
                + "FROM lrp_events WHERE entity = 'task' AND to_state = 'COMPLETED' AND process_guid LIKE '" + PREFIX
                + "%' GROUP BY process_guid");
        double[] lags = completions.stream().filter(row -> arrivals.containsKey(row.get(0)))
                .mapToDouble(row -> arrivals.get(row.get(0)) - Double.parseDouble(row.get(1))).sorted().toArray();
        if (lags.length == 0) {
            return new double[] {0, 0};
        }
        return new double[] {lags[lags.length / 2], lags[Math.min(lags.length - 1, (int) (lags.length * 0.99))]};
    }

    static String task(String guid, String callbackUrl) {
        return """
                {"task_guid": "%s", "domain": "bench", "rootfs": "preloaded:host", "memory_mb": 16, "disk_mb": 16,
                 "action": {"run": {"path": "sh", "args": ["-c", "echo done > result.txt"]}},
                 "result_file": "result.txt", "completion_callback_url": "%s"}""".formatted(guid, callbackUrl);
    }

    private record Round(long startedAtMillis, double seconds, int refused, long delivered, CpuAccount.Usage usage) {

        boolean done(int tasks) {
            return delivered >= tasks - refused;
        }

        double perTask() {
            return 1000 * usage.drover() / Math.max(1, delivered);
        }

        double jitPerTask() {
            return 1000 * usage.jit() / Math.max(1, delivered);
        }
    }
}
