package io.drover.verify.check;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 3.2's table, as seen from outside in an event's before and after: "same" needs the same instance guid before
 * and after (CLAIMED to CLAIMED, RUNNING to CLAIMED or RUNNING); UNCLAIMED never goes to CRASHED, CRASHED never to
 * CRASHED. A crash clears the owner, so the owner's part of CLAIMED/RUNNING to CRASHED is not visible here.
 */
final class AllowedTransitions {

    private AllowedTransitions() {
    }

    /** Why the change from {@code before} to {@code after} is not allowed, or null. */
    static String why(JsonNode before, JsonNode after) {
        String from = before.path("state").asString();
        String to = after.path("state").asString();
        boolean same = Objects.equals(guid(before), guid(after));
        boolean allowed = switch (from) {
            case "UNCLAIMED" -> !to.equals("CRASHED");
            // a crash clears the owner: that it was the owner's is the model's check, not visible here
            case "CLAIMED" -> !to.equals("CLAIMED") || same;
            case "RUNNING" -> to.equals("UNCLAIMED") || to.equals("CRASHED") || same;
            case "CRASHED" -> !to.equals("CRASHED");
            default -> false;
        };
        return allowed ? null : "SPEC 3.2 does not allow " + from + " " + guid(before) + " -> " + to + " "
                + guid(after);
    }

    private static String guid(JsonNode lrp) {
        JsonNode g = lrp.get("instance_guid");
        return g == null || g.isNull() ? null : g.asString();
    }
}
