package io.drover.receptor.desiredlrp;

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
    private static final SerializableString MODIFICATION_TAG = name("modification_tag");
    private static final SerializableString EPOCH = name("epoch");
    private static final SerializableString INDEX = name("index");
    private static final SerializableString CREATED_AT = name("created_at");
    private static final SerializableString UPDATED_AT = name("updated_at");
    private static final SerializableString DEFINITION_VERSION = name("definition_version");

    private DesiredLrpJson() {
    }

    static void write(JsonGenerator json, DesiredLrpRow row) {
        json.writeStartObject();
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
        json.writeEndObject();
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
