package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import tools.jackson.databind.JsonNode;

/**
 * Check 5, tasks: every accepted submission ran at most once (each run appends a {@code start} line to the run's task
 * file: never two for one task guid), a task that completed without failing ran exactly once, every task with a
 * completion callback that completed got a callback its server answered 2xx at least once, and no task is seen RUNNING
 * on a live cell later than {@code sync-interval + 10 s} after its action wrote its {@code end} line.
 */
public final class Tasks {

    public static final String NAME = "tasks";
    private static final long LATE = 10_000_000;

    private Tasks() {
    }

    public static CheckResult check(History history) {
        Map<String, JsonNode> accepted = accepted(history);
        if (accepted.isEmpty()) {
            return CheckResult.skipped(NAME, "no task submitted");
        }
        Map<String, List<Entry.TaskRun>> runs = new HashMap<>();
        history.all(Entry.TaskRun.class).forEach(r -> runs.computeIfAbsent(r.taskGuid(), g -> new ArrayList<>()).add(r));
        Set<String> succeeded = new HashSet<>();
        Set<String> completed = new HashSet<>();
        Map<String, Set<String>> epochs = new HashMap<>();
        observations(history, (task, at) -> {
            String epoch = task.path("modification_tag").path("epoch").asString("");
            if (!epoch.isEmpty()) {
                epochs.computeIfAbsent(task.path("task_guid").asString(), g -> new HashSet<>()).add(epoch);
            }
            if ("COMPLETED".equals(task.path("state").asString())) {
                completed.add(task.path("task_guid").asString());
                if (!task.path("failed").asBoolean()) {
                    succeeded.add(task.path("task_guid").asString());
                }
            }
        });
        Set<String> calledBack = new HashSet<>();
        history.all(Entry.Callback.class).filter(c -> c.answered() >= 200 && c.answered() < 300)
                .forEach(c -> calledBack.add(c.taskGuid()));
        List<Anomaly> anomalies = new ArrayList<>();
        for (String guid : accepted.keySet()) {
            List<Entry.TaskRun> mine = runs.getOrDefault(guid, List.of());
            long starts = mine.stream().filter(r -> r.mark().equals("start")).count();
            if (starts > 1) {
                int records = epochs.getOrDefault(guid, Set.of()).size();
                anomalies.add(new Anomaly(NAME, guid, 0, records >= starts
                        ? "ran " + starts + " times: each time its task was deleted, the same submission was accepted "
                                + "again as a new task (SPEC 13: a deleted task's guid stays known for 24 h, a retried "
                                + "submit is 200 or 409 and never a second run)"
                        : "ran " + starts + " times for one task record",
                        mine.stream().map(Object::toString).toList()));
            } else if (succeeded.contains(guid) && starts == 0) {
                anomalies.add(Anomaly.of(NAME, guid, 0, "completed without failing, but its action never ran"));
            }
            boolean wantsCallback = !accepted.get(guid).path("completion_callback_url").asString("").isEmpty();
            if (wantsCallback && completed.contains(guid) && !calledBack.contains(guid)) {
                anomalies.add(Anomaly.of(NAME, guid, 0, "completed, and no callback reached its server with a 2xx"));
            }
        }
        anomalies.addAll(runningPastTheEnd(history, runs));
        return CheckResult.ran(NAME, anomalies, Map.of("tasks", accepted.size(), "runs",
                runs.values().stream().mapToLong(l -> l.stream().filter(r -> r.mark().equals("start")).count()).sum(),
                "callbacks", history.all(Entry.Callback.class).count()));
    }

    /** task guid -> the body of its first accepted submission. */
    private static Map<String, JsonNode> accepted(History history) {
        Map<String, JsonNode> accepted = new HashMap<>();
        for (Entry.Call c : history.calls(Kinds.TASK_SUBMIT, Kinds.TASK_RESUBMIT)) {
            if ((c.status() == 201 || c.status() == 200) && c.requestBody() != null) {
                accepted.putIfAbsent(c.key(), Json.tree(c.requestBody()));
            }
        }
        return accepted;
    }

    /** Every task JSON the history saw, with when it was read (an answer's call time, an event's arrival). */
    static void observations(History history, BiConsumer<JsonNode, Long> seen) {
        for (Entry.Call c : history.calls(Kinds.TASK_SUBMIT, Kinds.TASK_RESUBMIT, Kinds.TASK_READ, Kinds.TASK_CANCEL,
                Kinds.LIST_TASKS)) {
            if (c.status() == 200 || c.status() == 201) {
                JsonNode body = Json.tree(c.body());
                if (body.isArray()) {
                    body.forEach(t -> seen.accept(t, c.invoke()));
                } else {
                    seen.accept(body, c.invoke());
                }
            }
        }
        history.all(Entry.Event.class).filter(e -> e.name().startsWith("task_")).forEach(e -> {
            JsonNode task = e.data().has("task_after") ? e.data().get("task_after") : e.data().get("task");
            if (task != null && !e.name().equals("task_removed")) {
                seen.accept(task, e.received());
            }
        });
        history.all(Entry.Callback.class).forEach(c -> seen.accept(c.task(), c.received()));
    }

    private static List<Anomaly> runningPastTheEnd(History history, Map<String, List<Entry.TaskRun>> runs) {
        long started = history.meta().map(Entry.Meta::startedAtEpochMs).orElse(0L);
        long late = NeverTwoAtOnce.micros(history.timings().syncInterval()) + LATE;
        Windows windows = Windows.of(history);
        List<Anomaly> anomalies = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (Entry.Call c : history.calls(Kinds.TASK_READ, Kinds.LIST_TASKS)) {
            if (c.status() != 200) {
                continue;
            }
            JsonNode body = Json.tree(c.body());
            for (JsonNode task : body.isArray() ? body : List.of(body)) {
                String guid = task.path("task_guid").asString();
                if (!"RUNNING".equals(task.path("state").asString()) || reported.contains(guid)) {
                    continue;
                }
                long ended = runs.getOrDefault(guid, List.of()).stream().filter(r -> r.mark().equals("end"))
                        .mapToLong(r -> (r.atEpochMs() - started) * 1000).min().orElse(Long.MAX_VALUE);
                String cell = task.path("cell_id").asString();
                if (ended != Long.MAX_VALUE && c.invoke() > ended + late && !windows.away(cell, c.invoke(), late)) {
                    reported.add(guid);
                    anomalies.add(Anomaly.of(NAME, guid, c.invoke(), String.format(
                            "RUNNING on live cell %s %.1f s after its action ended", cell, (c.invoke() - ended) / 1e6),
                            "read: " + task));
                }
            }
        }
        return anomalies;
    }
}
