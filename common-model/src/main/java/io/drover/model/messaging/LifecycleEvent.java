package io.drover.model.messaging;

import io.drover.model.json.Json;
import io.drover.model.json.JsonWritable;
import io.drover.model.time.IsoInstants;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.UUID;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.io.SerializedString;
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

    private static final SerializedString EVENT_ID = new SerializedString("event_id");
    private static final SerializedString TYPE = new SerializedString("type");
    private static final SerializedString BEFORE = new SerializedString("before");
    private static final SerializedString AFTER = new SerializedString("after");
    private static final SerializedString OCCURRED_AT = new SerializedString("occurred_at");

    /** A JSON {@code null} (or an absent side) reads as Java {@code null}, so {@code before() == null} means created. */
    public LifecycleEvent {
        before = before == null || before.isNull() ? null : before;
        after = after == null || after.isNull() ? null : after;
    }

    /**
     * The Kafka value of an event, written once, straight from the snapshots to UTF-8 bytes (no intermediate tree, and
     * no reflection for a snapshot that writes itself, see {@link JsonWritable}): exactly the JSON the mapper writes for
     * these properties in this order, which a {@code LifecycleEvent} reads back from.
     */
    public static byte[] encode(UUID eventId, String type, Object before, Object after, Instant occurredAt) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1_024);
        try (JsonGenerator json = Json.MAPPER.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeName(EVENT_ID);
            json.writeString(eventId == null ? null : eventId.toString());
            json.writeName(TYPE);
            json.writeString(type);
            json.writeName(BEFORE);
            writeSide(json, before);
            json.writeName(AFTER);
            writeSide(json, after);
            json.writeName(OCCURRED_AT);
            json.writeString(occurredAt == null ? null : IsoInstants.format(occurredAt));
            json.writeEndObject();
        }
        return bytes.toByteArray();
    }

    private static void writeSide(JsonGenerator json, Object side) {
        if (side instanceof JsonWritable writable) {
            writable.writeJson(json);
        } else {
            json.writePOJO(side);
        }
    }
}
