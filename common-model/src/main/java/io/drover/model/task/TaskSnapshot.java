package io.drover.model.task;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.drover.model.json.JsonWritable;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.time.IsoInstants;
import java.time.Instant;
import tools.jackson.core.JsonGenerator;

/**
 * An immutable view of a {@link Task} in the shape of the receptor's task JSON: the submitted fields, then the state,
 * the cell it runs (or ran) on, the outcome ({@code failed}, {@code failure_reason}, {@code result}), why it waits for
 * a cell ({@code placement_error}), its times and, when it has a callback URL, where its completion callback stands
 * ({@code callback_status}, {@code callback_attempts}, {@code callback_last_status}, {@code callback_last_at},
 * {@code callback_next_at}: see {@link TaskCallback}). Used as the API response, the {@code before}/{@code after} of
 * task events and the body of a completion callback.
 */
public record TaskSnapshot(@JsonUnwrapped TaskDefinition definition, TaskState state, String cellId, boolean failed,
        String failureReason, String result, String placementError, Instant createdAt, Instant updatedAt,
        Instant firstCompletedAt,
        @JsonUnwrapped(prefix = "callback_") TaskCallback callback,
        ModificationTag modificationTag) implements JsonWritable {

    public String taskGuid() {
        return definition.taskGuid();
    }

    /**
     * What {@code Json.MAPPER} writes for this snapshot, property by property (the action, the only polymorphic part, by
     * the mapper): a task event carries two, a completion callback one, and the reflective path through the unwrapped
     * definition was the most of a task event's cost (pinned by MessageContractTest).
     */
    @Override
    public void writeJson(JsonGenerator json) {
        json.writeStartObject();
        if (definition != null) {
            TaskDefinition d = definition;
            json.writeStringProperty("task_guid", d.taskGuid());
            json.writeStringProperty("domain", d.domain());
            json.writeStringProperty("rootfs", d.rootfs());
            json.writeName("action");
            json.writePOJO(d.action());
            json.writeName("env");
            json.writeStartArray();
            for (EnvVar env : d.env()) {
                json.writeStartObject();
                json.writeStringProperty("name", env.name());
                json.writeStringProperty("value", env.value());
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeNumberProperty("memory_mb", d.memoryMb());
            json.writeNumberProperty("disk_mb", d.diskMb());
            json.writeNumberProperty("cpu_weight", d.cpuWeight());
            json.writeNumberProperty("max_pids", d.maxPids());
            json.writeName("placement_tags");
            json.writeStartArray();
            for (String tag : d.placementTags()) {
                json.writeString(tag);
            }
            json.writeEndArray();
            json.writeStringProperty("result_file", d.resultFile());
            json.writeStringProperty("completion_callback_url", d.completionCallbackUrl());
            json.writeStringProperty("annotation", d.annotation());
            json.writeStringProperty("log_guid", d.logGuid());
            json.writeStringProperty("metrics_guid", d.metricsGuid());
        }
        json.writeStringProperty("state", state == null ? null : state.name());
        json.writeStringProperty("cell_id", cellId);
        json.writeBooleanProperty("failed", failed);
        json.writeStringProperty("failure_reason", failureReason);
        json.writeStringProperty("result", result);
        json.writeStringProperty("placement_error", placementError);
        instant(json, "created_at", createdAt);
        instant(json, "updated_at", updatedAt);
        instant(json, "first_completed_at", firstCompletedAt);
        if (callback != null) {
            json.writeStringProperty("callback_status", callback.status() == null ? null : callback.status().label());
            json.writeNumberProperty("callback_attempts", callback.attempts());
            json.writeName("callback_last_status");
            if (callback.lastStatus() == null) {
                json.writeNull();
            } else {
                json.writeNumber(callback.lastStatus().intValue());
            }
            instant(json, "callback_last_at", callback.lastAt());
            instant(json, "callback_next_at", callback.nextAt());
        }
        json.writeName("modification_tag");
        if (modificationTag == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            json.writeStringProperty("epoch", modificationTag.epoch() == null ? null
                    : modificationTag.epoch().toString());
            json.writeNumberProperty("index", modificationTag.index());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void instant(JsonGenerator json, String name, Instant value) {
        json.writeStringProperty(name, value == null ? null : IsoInstants.format(value));
    }
}
