package io.drover.cli.events;

import io.drover.cli.json.JsonNode;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** One line for people about an event: what changed, of which instance, to what. Pure. */
final class EventSummary {

    static final Set<String> TYPES = Set.of("desired_lrp_created", "desired_lrp_changed", "desired_lrp_removed",
            "actual_lrp_created", "actual_lrp_changed", "actual_lrp_removed", "actual_lrp_crashed", "task_created",
            "task_changed", "task_removed", "deployment_changed");

    private EventSummary() {
    }

    static String describe(String type, JsonNode data) {
        return switch (type) {
            case "desired_lrp_created" -> guid(data.path("desired_lrp")) + " desired: "
                    + data.path("desired_lrp").path("instances").asInt() + " instance(s)";
            case "desired_lrp_changed" -> desiredChange(data);
            case "desired_lrp_removed" -> guid(data.path("desired_lrp")) + " deleted";
            case "actual_lrp_created" -> instance(data.path("actual_lrp")) + " "
                    + data.path("actual_lrp").path("state").asString();
            case "actual_lrp_changed" -> actualChange(data.path("actual_lrp_before"), data.path("actual_lrp_after"));
            case "actual_lrp_removed" -> instance(data.path("actual_lrp")) + " removed" + where(data.path("actual_lrp"));
            case "actual_lrp_crashed" -> instance(data.path("actual_lrp_after")) + " crashed: "
                    + data.path("actual_lrp_after").path("crash_reason").asString("?") + " (crash "
                    + data.path("actual_lrp_after").path("crash_count").asInt() + ")";
            case "task_created" -> data.path("task").path("task_guid").asString("?") + " submitted";
            case "task_changed" -> taskChange(data.path("task_before"), data.path("task_after"));
            case "task_removed" -> data.path("task").path("task_guid").asString("?") + " deleted";
            case "deployment_changed" -> deploymentChange(data.path("deployment_before"),
                    data.path("deployment_after"));
            default -> data.toString();
        };
    }

    /**
     * When the subject last changed, as its JSON says (an instance's {@code since}, the others' {@code updated_at}):
     * the time to show for an event from the past.
     */
    static Optional<Instant> when(JsonNode data) {
        for (String side : new String[] { "actual_lrp_after", "actual_lrp" }) {
            if (data.path(side).path("since").isNumber()) {
                return Optional.of(Instant.ofEpochMilli(data.path(side).path("since").asLong()));
            }
        }
        for (String side : new String[] { "desired_lrp_after", "desired_lrp", "task_after", "task",
                "deployment_after" }) {
            String at = data.path(side).path("updated_at").asString("");
            if (!at.isEmpty()) {
                try {
                    return Optional.of(Instant.parse(at));
                } catch (RuntimeException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    private static String taskChange(JsonNode before, JsonNode after) {
        String from = before.path("state").asString();
        String to = after.path("state").asString();
        String outcome = after.path("failed").asBoolean() ? " (failed: " + after.path("failure_reason").asString("?")
                + ")" : "";
        return after.path("task_guid").asString("?") + " " + (from.equals(to) ? to : from + " -> " + to)
                + where(after) + outcome;
    }

    private static String deploymentChange(JsonNode before, JsonNode after) {
        String from = before.path("state").asString("");
        String to = after.path("state").asString();
        return after.path("process_guid").asString("?") + " deployment v" + after.path("from_version").asInt()
                + " -> v" + after.path("to_version").asInt() + " " + (from.isEmpty() || from.equals(to) ? to
                        : from + " -> " + to);
    }

    private static String desiredChange(JsonNode data) {
        JsonNode before = data.path("desired_lrp_before");
        JsonNode after = data.path("desired_lrp_after");
        int from = before.path("instances").asInt();
        int to = after.path("instances").asInt();
        return guid(after) + (from != to ? " scaled " + from + " -> " + to : " changed");
    }

    private static String actualChange(JsonNode before, JsonNode after) {
        String from = before.path("state").asString();
        String to = after.path("state").asString();
        String change = from.equals(to) ? to : from + " -> " + to;
        String address = after.path("address").asString("");
        JsonNode ports = after.path("ports");
        if (!address.isEmpty() && ports.isArray() && !ports.isEmpty()) {
            address = " at " + address + ":" + ports.get(0).path("host_port").asInt();
        } else {
            address = "";
        }
        String error = after.path("placement_error").asString("");
        return instance(after) + " " + change + where(after) + address + (error.isEmpty() ? "" : " (" + error + ")");
    }

    private static String where(JsonNode actual) {
        String cell = actual.path("cell_id").asString("");
        return cell.isEmpty() ? "" : " on " + cell;
    }

    private static String instance(JsonNode actual) {
        return guid(actual) + "/" + actual.path("index").asInt();
    }

    private static String guid(JsonNode lrp) {
        return lrp.path("process_guid").asString("?");
    }
}
