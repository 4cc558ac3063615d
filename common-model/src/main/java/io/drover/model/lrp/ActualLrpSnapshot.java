package io.drover.model.lrp;

import io.drover.model.json.JsonWritable;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.JsonGenerator;

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

    /** What {@code Json.MAPPER} writes for this snapshot, property by property (pinned by MessageContractTest). */
    @Override
    public void writeJson(JsonGenerator json) {
        json.writeStartObject();
        json.writeStringProperty("process_guid", processGuid);
        json.writeNumberProperty("index", index);
        json.writeStringProperty("domain", domain);
        json.writeStringProperty("instance_guid", instanceGuid);
        json.writeStringProperty("cell_id", cellId);
        json.writeStringProperty("address", address);
        json.writeName("ports");
        if (ports == null) {
            json.writeNull();
        } else {
            json.writeStartArray();
            for (NetInfo.PortMapping port : ports) {
                json.writeStartObject();
                json.writeNumberProperty("container_port", port.containerPort());
                json.writeNumberProperty("host_port", port.hostPort());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeStringProperty("state", state == null ? null : state.name());
        json.writeNumberProperty("crash_count", crashCount);
        json.writeStringProperty("crash_reason", crashReason);
        json.writeStringProperty("placement_error", placementError);
        json.writeNumberProperty("since", since);
        json.writeName("next_restart_at");
        if (nextRestartAt == null) {
            json.writeNull();
        } else {
            json.writeNumber(nextRestartAt.longValue());
        }
        json.writeBooleanProperty("evacuating", evacuating);
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
        json.writeNumberProperty("definition_version", definitionVersion);
        json.writeEndObject();
    }
}
