package io.drover.model.lrp;

import io.drover.model.json.JsonWritable;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.io.SerializedString;

/**
 * An immutable view of an {@link ActualLrp} in the shape of the receptor's actual LRP JSON (SPEC 5.3). Used as the
 * {@code before}/{@code after} of lifecycle events and as the API response. {@code definitionVersion} is the
 * definition version the incarnation runs (SPEC 14).
 */
public record ActualLrpSnapshot(String processGuid, int index, String domain, String instanceGuid, String cellId,
        String address, List<NetInfo.PortMapping> ports, ActualLrpState state, int crashCount, String crashReason,
        String placementError, long since, Long nextRestartAt, boolean evacuating, ModificationTag modificationTag,
        int definitionVersion) implements JsonWritable {

    static ActualLrpSnapshot of(ActualLrp lrp, Instant nextRestartAt) {
        NetInfo net = lrp.netInfo();
        return new ActualLrpSnapshot(lrp.processGuid(), lrp.index(), lrp.domain(), lrp.instanceGuid(), lrp.cellId(),
                net == null ? null : net.address(), net == null ? List.of() : net.ports(), lrp.state(),
                lrp.crashCount(), lrp.crashReason(), lrp.placementError(), lrp.since().toEpochMilli(),
                nextRestartAt == null ? null : nextRestartAt.toEpochMilli(), lrp.isEvacuating(),
                lrp.modificationTag(), lrp.definitionVersion());
    }

    public ActualLrpKey key() {
        return new ActualLrpKey(processGuid, index);
    }

    private static final SerializedString PROCESS_GUID = new SerializedString("process_guid");
    private static final SerializedString INDEX = new SerializedString("index");
    private static final SerializedString DOMAIN = new SerializedString("domain");
    private static final SerializedString INSTANCE_GUID = new SerializedString("instance_guid");
    private static final SerializedString CELL_ID = new SerializedString("cell_id");
    private static final SerializedString ADDRESS = new SerializedString("address");
    private static final SerializedString PORTS = new SerializedString("ports");
    private static final SerializedString CONTAINER_PORT = new SerializedString("container_port");
    private static final SerializedString HOST_PORT = new SerializedString("host_port");
    private static final SerializedString STATE = new SerializedString("state");
    private static final SerializedString CRASH_COUNT = new SerializedString("crash_count");
    private static final SerializedString CRASH_REASON = new SerializedString("crash_reason");
    private static final SerializedString PLACEMENT_ERROR = new SerializedString("placement_error");
    private static final SerializedString SINCE = new SerializedString("since");
    private static final SerializedString NEXT_RESTART_AT = new SerializedString("next_restart_at");
    private static final SerializedString EVACUATING = new SerializedString("evacuating");
    private static final SerializedString MODIFICATION_TAG = new SerializedString("modification_tag");
    private static final SerializedString EPOCH = new SerializedString("epoch");
    private static final SerializedString DEFINITION_VERSION = new SerializedString("definition_version");

    /**
     * What {@code Json.MAPPER} writes for this snapshot, property by property, with the names quoted once (pinned by
     * MessageContractTest).
     */
    @Override
    public void writeJson(JsonGenerator json) {
        json.writeStartObject();
        string(json, PROCESS_GUID, processGuid);
        json.writeName(INDEX);
        json.writeNumber(index);
        string(json, DOMAIN, domain);
        string(json, INSTANCE_GUID, instanceGuid);
        string(json, CELL_ID, cellId);
        string(json, ADDRESS, address);
        json.writeName(PORTS);
        if (ports == null) {
            json.writeNull();
        } else {
            json.writeStartArray();
            for (NetInfo.PortMapping port : ports) {
                json.writeStartObject();
                json.writeName(CONTAINER_PORT);
                json.writeNumber(port.containerPort());
                json.writeName(HOST_PORT);
                json.writeNumber(port.hostPort());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        string(json, STATE, state == null ? null : state.name());
        json.writeName(CRASH_COUNT);
        json.writeNumber(crashCount);
        string(json, CRASH_REASON, crashReason);
        string(json, PLACEMENT_ERROR, placementError);
        json.writeName(SINCE);
        json.writeNumber(since);
        json.writeName(NEXT_RESTART_AT);
        if (nextRestartAt == null) {
            json.writeNull();
        } else {
            json.writeNumber(nextRestartAt.longValue());
        }
        json.writeName(EVACUATING);
        json.writeBoolean(evacuating);
        json.writeName(MODIFICATION_TAG);
        if (modificationTag == null) {
            json.writeNull();
        } else {
            json.writeStartObject();
            string(json, EPOCH, modificationTag.epoch() == null ? null : modificationTag.epoch().toString());
            json.writeName(INDEX);
            json.writeNumber(modificationTag.index());
            json.writeEndObject();
        }
        json.writeName(DEFINITION_VERSION);
        json.writeNumber(definitionVersion);
        json.writeEndObject();
    }

    private static void string(JsonGenerator json, SerializedString name, String value) {
        json.writeName(name);
        json.writeString(value);
    }
}
