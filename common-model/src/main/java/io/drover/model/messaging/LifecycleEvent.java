package io.drover.model.messaging;

import io.drover.model.json.Json;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * One change of a desired or actual LRP or of a task, as published on {@link Topics#LIFECYCLE_EVENTS} (key process_guid,
 * or task_guid) and streamed by the receptor's SSE endpoint. {@code before} and {@code after} are the API
 * representations (SPEC 5.2, 5.3, 13); {@code before} is null for a creation and {@code after} is null for a removal.
 */
public record LifecycleEvent(UUID eventId, String type, JsonNode before, JsonNode after, Instant occurredAt) {

    public static final String DESIRED_LRP_CREATED = "desired_lrp_created";
    public static final String DESIRED_LRP_CHANGED = "desired_lrp_changed";
    public static final String DESIRED_LRP_REMOVED = "desired_lrp_removed";
    public static final String ACTUAL_LRP_CREATED = "actual_lrp_created";
    public static final String ACTUAL_LRP_CHANGED = "actual_lrp_changed";
    public static final String ACTUAL_LRP_REMOVED = "actual_lrp_removed";
    public static final String ACTUAL_LRP_CRASHED = "actual_lrp_crashed";
    public static final String TASK_CREATED = "task_created";
    public static final String TASK_CHANGED = "task_changed";
    public static final String TASK_REMOVED = "task_removed";
    /**
     * Not an event: the audit trail's record that a stop was asked of the cell running an instance (the removal that
     * follows is the event).
     */
    public static final String ACTUAL_LRP_STOP_REQUESTED = "actual_lrp_stop_requested";

    /** A JSON {@code null} (or an absent side) reads as Java {@code null}, so {@code before() == null} means created. */
    public LifecycleEvent {
        before = before == null || before.isNull() ? null : before;
        after = after == null || after.isNull() ? null : after;
    }

    /**
     * The Kafka value of an event, written once, straight from the snapshots to UTF-8 bytes (no intermediate tree):
     * exactly the JSON a {@code LifecycleEvent} with these sides reads back from.
     */
    public static byte[] encode(UUID eventId, String type, Object before, Object after, Instant occurredAt) {
        return Json.MAPPER.writeValueAsBytes(new Encoded(eventId, type, before, after, occurredAt));
    }

    /** The writing side of this record: the same properties in the same order, with the snapshots as they are. */
    private record Encoded(UUID eventId, String type, Object before, Object after, Instant occurredAt) {
    }
}
