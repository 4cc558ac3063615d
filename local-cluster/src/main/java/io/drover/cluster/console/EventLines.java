package io.drover.cluster.console;

import io.drover.model.messaging.LifecycleEvent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * The terminal's line for each notable change, from what the cluster already records: cells joining, lost and back
 * (their presence rows), instances crashing or failing placement, deployments moving and cells drained (lifecycle
 * events), repairs by the converger (its action counters). Pure, so that each wording is tested.
 */
final class EventLines {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private EventLines() {
    }

    /** A cell as its presence row shows it. */
    record CellSeen(String zone, boolean live) {
    }

    /** Lines for the cells whose presence changed between two looks at the cells table. */
    static List<String> cells(Map<String, CellSeen> before, Map<String, CellSeen> after) {
        List<String> lines = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>(before.keySet());
        ids.addAll(after.keySet());
        for (String id : ids) {
            CellSeen was = before.get(id);
            CellSeen is = after.get(id);
            if (is == null) {
                lines.add("cell " + id + " left");
            } else if (was == null && is.live()) {
                lines.add("cell " + id + " joined (zone " + is.zone() + ")");
            } else if (was != null && was.live() && !is.live()) {
                lines.add("cell " + id + " lost (its presence expired)");
            } else if (was != null && !was.live() && is.live()) {
                lines.add("cell " + id + " is back");
            }
        }
        return lines;
    }

    /**
     * A line for a crash, a new placement failure or a deployment's new state; nothing for the many ordinary
     * transitions.
     */
    static Optional<String> lifecycle(LifecycleEvent event, ZoneId zone) {
        JsonNode before = event.before();
        JsonNode after = event.after();
        if ("deployment_changed".equals(event.type()) && after != null) {
            return deployment(before, after);
        }
        if ("cell_changed".equals(event.type()) && before != null && after != null) {
            return cell(before, after, zone);
        }
        if (LifecycleEvent.ACTUAL_LRP_CRASHED.equals(event.type()) && after != null) {
            String where = before == null || text(before, "cell_id") == null ? "" : " on " + text(before, "cell_id");
            return Optional.of(instance(after) + " crashed" + where + ": " + text(after, "crash_reason") + " ("
                    + restart(after, zone) + ")");
        }
        if (LifecycleEvent.ACTUAL_LRP_CHANGED.equals(event.type()) && after != null) {
            String error = text(after, "placement_error");
            if (error != null && !error.isEmpty() && (before == null || !Objects.equals(error,
                    text(before, "placement_error")))) {
                return Optional.of(instance(after) + " cannot be placed: " + error);
            }
        }
        return Optional.empty();
    }

    /** A line for the actions the converger applied since the last look, by rule; counts are cumulative. */
    static Optional<String> repairs(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Long> done = new TreeMap<>();
        after.forEach((rule, count) -> {
            long n = Math.round(count - before.getOrDefault(rule, 0.0));
            if (n > 0) {
                done.put(rule, n);
            }
        });
        if (done.isEmpty()) {
            return Optional.empty();
        }
        long total = done.values().stream().mapToLong(Long::longValue).sum();
        List<String> parts = new ArrayList<>();
        done.forEach((rule, n) -> parts.add(rule + " " + n));
        return Optional.of("convergence repaired " + total + " (" + String.join(", ", parts) + ")");
    }

    /** A deployment started, or moved to another state (SPEC 14). */
    private static Optional<String> deployment(JsonNode before, JsonNode after) {
        String state = text(after, "state");
        String what = text(after, "process_guid") + " deployment v" + after.path("from_version").asInt() + " -> v"
                + after.path("to_version").asInt();
        if (before == null) {
            return Optional.of(what + " started by " + text(after, "created_by"));
        }
        if (Objects.equals(state, text(before, "state"))) {
            return Optional.empty();
        }
        String reason = text(after, "failure_reason");
        return Optional.of(what + " " + state.toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + (reason == null || !(state.equals("FAILED") || state.equals("REVERTED")) ? "" : ": " + reason));
    }

    /** A cell drained by an operator, done draining, or undrained (SPEC 18). */
    private static Optional<String> cell(JsonNode before, JsonNode after, ZoneId zone) {
        String state = text(after, "state");
        if (Objects.equals(state, text(before, "state"))) {
            return Optional.empty();
        }
        String cell = "cell " + text(after, "cell_id");
        return switch (state) {
            case "EVACUATING" -> Optional.of(cell + " draining, asked by " + text(after.path("drain"), "requested_by")
                    + " (deadline " + TIME.format(Instant.parse(text(after.path("drain"), "deadline_at")).atZone(zone))
                    + ")");
            case "DRAINED" -> Optional.of(cell + " drained: nothing runs there, it takes no work until undrained");
            default -> Optional.of(cell + " undrained: it takes work again");
        };
    }

    private static String restart(JsonNode after, ZoneId zone) {
        String crashes = "crash " + after.path("crash_count").asInt();
        if (!"CRASHED".equals(text(after, "state"))) {
            return crashes + ", restarting now";
        }
        JsonNode next = after.get("next_restart_at");
        if (next == null || next.isNull()) {
            return crashes + ", not restarted again";
        }
        return crashes + ", next restart at " + TIME.format(Instant.ofEpochMilli(next.asLong()).atZone(zone));
    }

    private static String instance(JsonNode lrp) {
        return text(lrp, "process_guid") + "/" + lrp.path("index").asInt();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
