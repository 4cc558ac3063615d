package io.drover.verify.observe;

import io.drover.model.json.Json;
import io.drover.verify.check.Convergence;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import io.drover.verify.workload.ApiClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cluster once faults and clients stopped: snapshots (desired and actual LRPs, cells, tasks, deployments, the
 * workload processes) every two seconds until they have shown it converged for long enough and every due callback
 * arrived, or the deadline passed; then the task file's lines.
 */
public final class Snapshots {

    private final ApiClient api;
    private final List<String> keys;
    private final String marker;
    private final HistoryFile history;
    private final RunClock clock;

    public Snapshots(ApiClient api, List<String> keys, String marker, HistoryFile history, RunClock clock) {
        this.api = api;
        this.keys = keys;
        this.marker = marker;
        this.history = history;
        this.clock = clock;
    }

    /**
     * Snapshots until the cluster has been converged for {@code hold} and {@code settled} (callbacks in), or until
     * {@code deadline}; true when converged.
     */
    public boolean untilConverged(Duration deadline, Duration hold, BooleanSupplier settled) {
        long end = System.nanoTime() + deadline.toNanos();
        Set<String> keySet = new HashSet<>(keys);
        Long since = null;
        while (true) {
            Entry.Snapshot s = take();
            if (s != null) {
                history.add(s);
                since = Convergence.violations(s, keySet).isEmpty() ? (since == null ? s.at() : since) : null;
                if (since != null && s.at() - since >= hold.toNanos() / 1000 && settled.getAsBoolean()) {
                    return true;
                }
            }
            if (System.nanoTime() > end) {
                return false;
            }
            pause(2000);
        }
    }

    /** One snapshot, or null when the API did not answer every read. */
    public Entry.Snapshot take() {
        long at = clock.now();
        JsonNode desired = read("/v1/desired_lrps");
        JsonNode actuals = read("/v1/actual_lrps");
        JsonNode cells = read("/v1/cells");
        JsonNode tasks = read("/v1/tasks");
        if (desired == null || actuals == null || cells == null || tasks == null) {
            return null;
        }
        ObjectNode deployments = Json.MAPPER.createObjectNode();
        for (String key : keys) {
            JsonNode list = read("/v1/desired_lrps/" + key + "/deployments");
            if (list != null) {
                deployments.set(key, list);
            }
        }
        return new Entry.Snapshot(at, desired, actuals, cells, tasks, deployments, Processes.scan(marker));
    }

    private JsonNode read(String path) {
        Entry.Call call = api.call("snapshot", "snapshot", path, "GET", path, null, null);
        return call.status() == 200 ? Json.tree(call.body()) : null;
    }

    /** The task file's lines: {@code start|end <task guid> <epoch ms> <pid>}. */
    public static List<Entry.TaskRun> taskRuns(List<String> lines) {
        return lines.stream().map(l -> l.trim().split("\\s+")).filter(f -> f.length >= 3)
                .map(f -> new Entry.TaskRun(f[1], f[0], Long.parseLong(f[2]), f.length > 3 ? f[3] : null)).toList();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
