package io.drover.receptor.actuallrp;

import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.read.ActualLrpRow;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * Writes an actual LRP row as the API's JSON (SPEC 5.3, the shape of {@code ActualLrpSnapshot}), field by field in
 * the same order, straight to a generator. The stored port mappings are already that JSON and are copied as they are.
 */
final class ActualLrpJson {

    private static final SerializableString PROCESS_GUID = name("process_guid");
    private static final SerializableString INDEX = name("index");
    private static final SerializableString DOMAIN = name("domain");
    private static final SerializableString INSTANCE_GUID = name("instance_guid");
    private static final SerializableString CELL_ID = name("cell_id");
    private static final SerializableString ADDRESS = name("address");
    private static final SerializableString PORTS = name("ports");
    private static final SerializableString STATE = name("state");
    private static final SerializableString CRASH_COUNT = name("crash_count");
    private static final SerializableString CRASH_REASON = name("crash_reason");
    private static final SerializableString PLACEMENT_ERROR = name("placement_error");
    private static final SerializableString SINCE = name("since");
    private static final SerializableString NEXT_RESTART_AT = name("next_restart_at");
    private static final SerializableString EVACUATING = name("evacuating");
    private static final SerializableString MODIFICATION_TAG = name("modification_tag");
    private static final SerializableString EPOCH = name("epoch");
    private static final SerializableString DEFINITION_VERSION = name("definition_version");

    private final CrashRestartPolicy policy;

    ActualLrpJson(CrashRestartPolicy policy) {
        this.policy = policy;
    }

    void write(JsonGenerator json, ActualLrpRow row) {
        json.writeStartObject();
        json.writeName(PROCESS_GUID);
        json.writeString(row.processGuid());
        json.writeName(INDEX);
        json.writeNumber(row.index());
        json.writeName(DOMAIN);
        json.writeString(row.domain());
        json.writeName(INSTANCE_GUID);
        json.writeString(row.instanceGuid());
        json.writeName(CELL_ID);
        json.writeString(row.cellId());
        json.writeName(ADDRESS);
        json.writeString(row.address());
        json.writeName(PORTS);
        if (row.address() == null || row.portsJson() == null) {
            json.writeStartArray();
            json.writeEndArray();
        } else {
            json.writeRawValue(row.portsJson());
        }
        json.writeName(STATE);
        json.writeString(row.state().name());
        writeCrash(json, row);
        json.writeName(EVACUATING);
        json.writeBoolean(row.evacuating());
        json.writeName(MODIFICATION_TAG);
        json.writeStartObject();
        json.writeName(EPOCH);
        json.writeString(row.epoch().toString());
        json.writeName(INDEX);
        json.writeNumber(row.version());
        json.writeEndObject();
        json.writeName(DEFINITION_VERSION);
        json.writeNumber(row.definitionVersion());
        json.writeEndObject();
    }

    private void writeCrash(JsonGenerator json, ActualLrpRow row) {
        json.writeName(CRASH_COUNT);
        json.writeNumber(row.crashCount());
        json.writeName(CRASH_REASON);
        json.writeString(row.crashReason());
        json.writeName(PLACEMENT_ERROR);
        json.writeString(row.placementError());
        json.writeName(SINCE);
        json.writeNumber(row.sinceMillis());
        json.writeName(NEXT_RESTART_AT);
        Long next = row.nextRestartAtMillis(policy);
        if (next == null) {
            json.writeNull();
        } else {
            json.writeNumber(next);
        }
    }

    private static SerializableString name(String name) {
        return new SerializedString(name);
    }
}
