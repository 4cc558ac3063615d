package io.drover.receptor.events;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.receptor.desiredlrp.DesiredLrpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Maps a lifecycle event to the SSE event of SPEC 5.6: its name is the event type; a creation carries
 * {@code {"desired_lrp": after}}, a removal {@code {"desired_lrp": before}}, a change (and a crash)
 * {@code {"desired_lrp_before", "desired_lrp_after"}}, the same with {@code actual_lrp}, {@code task},
 * {@code deployment} and {@code cell} ({@code cell_changed}: {@code {"cell_before", "cell_after"}}). Desired LRPs
 * are shown exactly as the REST API shows them; actual LRPs and tasks are the model's snapshots, which are the API's.
 */
final class SseEvents {

    private SseEvents() {
    }

    /** The data line of the event, or null for a type this version does not know (skipped, not fatal). */
    static String data(LifecycleEvent event) {
        String type = event.type();
        if (type == null) {
            return null;
        }
        String entity = type.startsWith("desired_lrp_") ? "desired_lrp" : type.startsWith("actual_lrp_") ? "actual_lrp"
                : type.startsWith("task_") ? "task" : type.startsWith("deployment_") ? "deployment"
                : type.startsWith("cell_") ? "cell" : null;
        if (entity == null) {
            return null;
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        if (type.endsWith("_created")) {
            payload.put(entity, view(entity, event.after()));
        } else if (type.endsWith("_removed")) {
            payload.put(entity, view(entity, event.before()));
        } else {
            payload.put(entity + "_before", view(entity, event.before()));
            payload.put(entity + "_after", view(entity, event.after()));
        }
        return Json.write(payload);
    }

    private static Object view(String entity, JsonNode snapshot) {
        if (snapshot == null || snapshot.isNull()) {
            return null;
        }
        return entity.equals("desired_lrp") ? DesiredLrpResponse.fromEvent(snapshot) : snapshot;
    }
}
