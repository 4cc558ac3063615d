package io.drover.receptor.desiredlrp;

import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.read.DesiredLrpRow;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * Writes a desired LRP row as the API's JSON (SPEC 5.2, the shape of {@link DesiredLrpResponse}), field by field in
 * the same order, straight to a generator. The structured columns hold the JSON the lifecycle wrote with the model's
 * mapper, which is already the API's shape, so they are copied as they are; the stored monitor (a run action) is wrapped
 * in {@code {"run": ...}} like {@code action}. {@code DesiredLrpJsonIT} holds this equal, byte for byte, to serializing
 * the entity's snapshot.
 */
final class DesiredLrpJson {

    private static final SerializableString PROCESS_GUID = name("process_guid");
    private static final SerializableString DOMAIN = name("domain");
    private static final SerializableString ROOTFS = name("rootfs");
    private static final SerializableString INSTANCES = name("instances");
    private static final SerializableString ACTION = name("action");
    private static final SerializableString MONITOR = name("monitor");
    private static final SerializableString RUN = name("run");
    private static final SerializableString CHECK_DEFINITION = name("check_definition");
    private static final SerializableString START_TIMEOUT = name("start_timeout");
    private static final SerializableString ENV = name("env");
    private static final SerializableString PORTS = name("ports");
    private static final SerializableString MEMORY_MB = name("memory_mb");
    private static final SerializableString DISK_MB = name("disk_mb");
    private static final SerializableString MAX_PIDS = name("max_pids");
    private static final SerializableString CPU_WEIGHT = name("cpu_weight");
    private static final SerializableString PLACEMENT_TAGS = name("placement_tags");
    private static final SerializableString ROUTES = name("routes");
    private static final SerializableString ANNOTATION = name("annotation");
    private static final SerializableString LOG_GUID = name("log_guid");
    private static final SerializableString METRICS_GUID = name("metrics_guid");
    private static final SerializableString AUTOSCALING = name("autoscaling");
    private static final SerializableString MODIFICATION_TAG = name("modification_tag");
    private static final SerializableString EPOCH = name("epoch");
    private static final SerializableString INDEX = name("index");
    private static final SerializableString CREATED_AT = name("created_at");
    private static final SerializableString UPDATED_AT = name("updated_at");
    private static final SerializableString DEFINITION_VERSION = name("definition_version");
    private static final SerializableString AUTOSCALING_STATUS = name("autoscaling_status");
    private static final SerializableString EVALUATED_AT = name("evaluated_at");
    private static final SerializableString CPU_PERCENT = name("cpu_percent");
    private static final SerializableString MEMORY_PERCENT = name("memory_percent");
    private static final SerializableString COUNTED_INSTANCES = name("counted_instances");
    private static final SerializableString DESIRED_INSTANCES = name("desired_instances");
    private static final SerializableString CONDITION = name("condition");
    private static final SerializableString LAST_SCALE_AT = name("last_scale_at");
    private static final SerializableString LAST_SCALE_FROM = name("last_scale_from");
    private static final SerializableString LAST_SCALE_TO = name("last_scale_to");
    private static final SerializableString LAST_SCALE_REASON = name("last_scale_reason");

    private DesiredLrpJson() {
    }

    static void write(JsonGenerator json, DesiredLrpRow row) {
        json.writeStartObject();
        writeFields(json, row);
        json.writeEndObject();
    }

    /**
     * A single read: the row, and for an autoscaled LRP the autoscaler's last {@code autoscaling_status} (null until it
     * has looked). An LRP without a policy reads exactly as in a list.
     */
    static void write(JsonGenerator json, DesiredLrpRow row, AutoscalingStatus status) {
        json.writeStartObject();
        writeFields(json, row);
        if (row.autoscalingJson() != null) {
            json.writeName(AUTOSCALING_STATUS);
            writeStatus(json, status);
        }
        json.writeEndObject();
    }

    private static void writeStatus(JsonGenerator json, AutoscalingStatus status) {
        if (status == null) {
            json.writeNull();
            return;
        }
        json.writeStartObject();
        string(json, EVALUATED_AT, status.evaluatedAt().toString());
        decimal(json, CPU_PERCENT, status.cpuPercent());
        decimal(json, MEMORY_PERCENT, status.memoryPercent());
        number(json, COUNTED_INSTANCES, status.countedInstances());
        number(json, DESIRED_INSTANCES, status.desiredInstances());
        string(json, CONDITION, status.condition());
        string(json, LAST_SCALE_AT, status.lastScaleAt() == null ? null : status.lastScaleAt().toString());
        nullableNumber(json, LAST_SCALE_FROM, status.lastScaleFrom());
        nullableNumber(json, LAST_SCALE_TO, status.lastScaleTo());
        string(json, LAST_SCALE_REASON, status.lastScaleReason());
        json.writeEndObject();
    }

    private static void nullableNumber(JsonGenerator json, SerializableString name, Integer value) {
        json.writeName(name);
        if (value == null) {
            json.writeNull();
        } else {
            json.writeNumber(value.intValue());
        }
    }

    private static void decimal(JsonGenerator json, SerializableString name, Double value) {
        json.writeName(name);
        if (value == null) {
            json.writeNull();
        } else {
            json.writeNumber(Math.round(value * 10) / 10.0); // a tenth of a percent is all a reader can use
        }
    }

    private static void writeFields(JsonGenerator json, DesiredLrpRow row) {
        string(json, PROCESS_GUID, row.processGuid());
        string(json, DOMAIN, row.domain());
        string(json, ROOTFS, row.rootfs());
        number(json, INSTANCES, row.instances());
        raw(json, ACTION, row.actionJson());
        json.writeName(MONITOR);
        if (row.monitorJson() == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            raw(json, RUN, row.monitorJson());
            json.writeEndObject();
        }
        raw(json, CHECK_DEFINITION, row.checksJson());
        number(json, START_TIMEOUT, row.startTimeout());
        raw(json, ENV, row.envJson());
        raw(json, PORTS, row.portsJson());
        writeResources(json, row);
        raw(json, PLACEMENT_TAGS, row.placementTagsJson());
        raw(json, ROUTES, row.routesJson());
        string(json, ANNOTATION, row.annotation());
        string(json, LOG_GUID, row.logGuid());
        string(json, METRICS_GUID, row.metricsGuid());
        raw(json, AUTOSCALING, row.autoscalingJson());
        json.writeName(MODIFICATION_TAG);
        json.writeStartObject();
        string(json, EPOCH, row.epoch().toString());
        json.writeName(INDEX);
        json.writeNumber(row.version());
        json.writeEndObject();
        string(json, CREATED_AT, row.createdAt().toString());
        string(json, UPDATED_AT, row.updatedAt().toString());
        json.writeName(DEFINITION_VERSION);
        json.writeNumber(row.definitionVersion());
    }

    private static void writeResources(JsonGenerator json, DesiredLrpRow row) {
        number(json, MEMORY_MB, row.memoryMb());
        number(json, DISK_MB, row.diskMb());
        number(json, MAX_PIDS, row.maxPids());
        number(json, CPU_WEIGHT, row.cpuWeight());
    }

    private static void string(JsonGenerator json, SerializableString name, String value) {
        json.writeName(name);
        json.writeString(value);
    }

    private static void number(JsonGenerator json, SerializableString name, int value) {
        json.writeName(name);
        json.writeNumber(value);
    }

    /** A stored JSON value as it is, or null. */
    private static void raw(JsonGenerator json, SerializableString name, String storedJson) {
        json.writeName(name);
        if (storedJson == null) {
            json.writeNull();
        } else {
            json.writeRawValue(storedJson);
        }
    }

    private static SerializableString name(String name) {
        return new SerializedString(name);
    }
}
