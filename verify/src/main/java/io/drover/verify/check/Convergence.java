package io.drover.verify.check;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Check 4, convergence: within the stated deadline after the last fault was healed (and the clients stopped), the
 * snapshots of the cluster show, from some moment on and for at least {@link #settle} (a change in flight must have
 * had time to show), every desired LRP of the run with exactly {@code instances} RUNNING at indexes below
 * {@code instances}, each at the LRP's current definition version, no twin and no deployment still active; no
 * instance of an LRP that is not desired; every workload process owned by a RUNNING record on its own cell and every
 * RUNNING record served by a process (no container outlives its record); every cell counting in use exactly the
 * records it holds; and no task PENDING or RUNNING.
 */
public final class Convergence {

    public static final String NAME = "convergence";
    private static final Set<String> ACTIVE_DEPLOYMENT = Set.of("RUNNING", "PAUSED", "WAITING_FOR_PROMOTION");

    private Convergence() {
    }

    public static CheckResult check(History history) {
        List<Entry.Snapshot> snapshots = history.all(Entry.Snapshot.class).toList();
        if (snapshots.isEmpty()) {
            return CheckResult.skipped(NAME, "no quiescent snapshot recorded");
        }
        long healed = Math.max(history.lastFaultHealed(), history.phase("healed").orElse(0L));
        long deadline = healed + NeverTwoAtOnce.micros(history.timings().convergenceDeadline());
        long hold = settle(history.timings());
        Set<String> keys = new HashSet<>(history.meta().map(Entry.Meta::lrpKeys).orElse(List.of()));
        Long streak = null;
        Entry.Snapshot last = null;
        List<String> lastViolations = List.of("no snapshot within the deadline");
        for (Entry.Snapshot s : snapshots) {
            if (s.at() > deadline) {
                break;
            }
            last = s;
            lastViolations = violations(s, keys);
            streak = lastViolations.isEmpty() ? (streak == null ? s.at() : streak) : null;
        }
        if (streak != null && last.at() - streak >= hold) {
            return CheckResult.ran(NAME, List.of(), Map.of("converged_after_s", (streak - healed) / 1e6));
        }
        String why = streak != null ? String.format("converged only %.1f s before the deadline, less than the %.1f s "
                + "it must hold", (last.at() - streak) / 1e6, hold / 1e6) : "not converged "
                        + history.timings().convergenceDeadline() + " s after the last fault was healed";
        return CheckResult.ran(NAME, List.of(new Anomaly(NAME, "cluster", deadline, why,
                lastViolations.subList(0, Math.min(lastViolations.size(), 30)))), Map.of());
    }

    /**
     * How long a converged state must hold before it counts: what a change in flight needs to show (a stop requested
     * takes the stop grace, its record's removal a sync), twice over.
     */
    public static long settle(Entry.Timings t) {
        return NeverTwoAtOnce.micros(2 * t.syncInterval() + t.stopGrace());
    }

    /** What keeps this snapshot from being converged (empty: converged). {@code keys}: the run's process guids. */
    public static List<String> violations(Entry.Snapshot s, Set<String> keys) {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> desired = new HashMap<>();
        s.desired().forEach(d -> desired.put(d.path("process_guid").asString(), d));
        Map<String, List<JsonNode>> actuals = new HashMap<>();
        s.actuals().forEach(a -> actuals.computeIfAbsent(a.path("process_guid").asString(), g -> new ArrayList<>())
                .add(a));
        for (String key : keys) {
            JsonNode d = desired.get(key);
            List<JsonNode> instances = actuals.getOrDefault(key, List.of());
            if (d == null) {
                if (!instances.isEmpty()) {
                    problems.add(key + ": not desired, " + instances.size() + " instance records left");
                }
                continue;
            }
            lrp(key, d, instances, s.deployments().path(key), problems);
        }
        processes(s, problems);
        cells(s, problems);
        s.tasks().forEach(task -> {
            String state = task.path("state").asString();
            if (state.equals("PENDING") || state.equals("RUNNING")) {
                problems.add("task " + task.path("task_guid").asString() + " still " + state);
            }
        });
        return problems;
    }

    private static void lrp(String key, JsonNode d, List<JsonNode> instances, JsonNode deployments,
            List<String> problems) {
        int wanted = d.path("instances").asInt();
        int version = d.path("definition_version").asInt();
        boolean broken = broken(d);
        Set<Integer> running = new HashSet<>();
        for (JsonNode a : instances) {
            int index = a.path("index").asInt();
            String where = key + "/" + index;
            if (a.path("evacuating").asBoolean()) {
                problems.add(where + ": twin of " + a.path("instance_guid").asString() + " still listed");
            } else if (index >= wanted) {
                problems.add(where + ": index beyond instances " + wanted);
            } else if (broken) {
                running.add(index);
            } else if (!"RUNNING".equals(a.path("state").asString())) {
                problems.add(where + ": " + a.path("state").asString());
            } else if (a.path("definition_version").asInt() != version) {
                problems.add(where + ": runs definition version " + a.path("definition_version").asInt()
                        + ", current is " + version);
            } else {
                running.add(index);
            }
        }
        if (running.size() != wanted) {
            problems.add(key + ": " + running.size() + " of " + wanted + (broken ? " instance records of a broken"
                    + " definition" : " RUNNING at the current version"));
        }
        deployments.forEach(dep -> {
            if (ACTIVE_DEPLOYMENT.contains(dep.path("state").asString())) {
                problems.add(key + ": deployment " + dep.path("id").asString() + " still "
                        + dep.path("state").asString());
            }
        });
    }

    /**
     * Whether the LRP's current definition is the workload's broken one (its instances exit at once). A broken
     * deployment is normally reverted when it misses its deadline, but one that started while the LRP had no instance
     * succeeds at once, as a Kubernetes Deployment of zero replicas completes, and a later scale-up then runs the
     * broken definition for good: its instances crash and are restarted with back-off, which is the converged state of
     * such an LRP. It counts as converged with one record per index, in whatever state its crash cycle has it.
     */
    static boolean broken(JsonNode desired) {
        JsonNode args = desired.path("action").path("run").path("args");
        return args.size() >= 2 && "exit 3".equals(args.get(1).asString(""));
    }

    /** Every workload process is a RUNNING record's (on its cell), every RUNNING record has its process. */
    private static void processes(Entry.Snapshot s, List<String> problems) {
        Map<String, JsonNode> running = new HashMap<>();
        s.actuals().forEach(a -> {
            if ("RUNNING".equals(a.path("state").asString())) {
                running.put(a.path("instance_guid").asString(), a);
            }
        });
        Set<String> served = new HashSet<>();
        for (Entry.WorkloadProcess p : s.processes()) {
            JsonNode record = running.get(p.instanceGuid());
            if (record == null) {
                problems.add("process " + p.pid() + " (" + p.processGuid() + "/" + p.index() + " " + p.instanceGuid()
                        + " on " + p.cell() + ") outlives its record");
            } else if (!record.path("cell_id").asString().equals(p.cell())) {
                problems.add("process " + p.pid() + " of " + p.instanceGuid() + " runs on " + p.cell()
                        + ", its record says " + record.path("cell_id").asString());
            } else {
                served.add(p.instanceGuid());
            }
        }
        running.forEach((guid, a) -> {
            if (!served.contains(guid)) {
                problems.add(a.path("process_guid").asString() + "/" + a.path("index").asInt() + ": RUNNING record of "
                        + guid + " on " + a.path("cell_id").asString() + " has no process");
            }
        });
    }

    /** A cell counts in use exactly the containers of the records it holds (no task runs once quiet). */
    private static void cells(Entry.Snapshot s, List<String> problems) {
        Map<String, Integer> held = new HashMap<>();
        s.actuals().forEach(a -> {
            String state = a.path("state").asString();
            if (state.equals("RUNNING") || state.equals("CLAIMED")) {
                held.merge(a.path("cell_id").asString(), 1, Integer::sum);
            }
        });
        s.cells().forEach(cell -> {
            String id = cell.path("cell_id").asString();
            int used = cell.path("capacity").path("containers").asInt() - cell.path("available").path("containers").asInt();
            int records = held.getOrDefault(id, 0);
            if (used != records) {
                problems.add("cell " + id + " counts " + used + " containers in use, holds " + records);
            }
        });
    }
}
