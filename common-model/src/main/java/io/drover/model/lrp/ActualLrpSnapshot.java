package io.drover.model.lrp;

import java.time.Instant;
import java.util.List;

/**
 * An immutable view of an {@link ActualLrp} in the shape of the receptor's actual LRP JSON (SPEC 5.3). Used as the
 * {@code before}/{@code after} of lifecycle events and as the API response. {@code definitionVersion} is the
 * definition version the incarnation runs (SPEC 14).
 */
public record ActualLrpSnapshot(String processGuid, int index, String domain, String instanceGuid, String cellId,
        String address, List<NetInfo.PortMapping> ports, ActualLrpState state, int crashCount, String crashReason,
        String placementError, long since, Long nextRestartAt, boolean evacuating, ModificationTag modificationTag,
        int definitionVersion) {

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
}
