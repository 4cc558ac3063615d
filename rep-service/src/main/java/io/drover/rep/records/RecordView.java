package io.drover.rep.records;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.InstanceOwner;
import java.util.UUID;

/**
 * The few columns of an actual LRP record that a rep decides on; {@code stopRequested} is why its owner was asked to
 * stop the container (null when nobody asked); {@code keptForDeployment} marks a twin a deployment keeps serving.
 */
public record RecordView(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId,
        String placedCellId, UUID epoch, String stopRequested, boolean keptForDeployment) {

    public RecordView(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId, String placedCellId,
            UUID epoch, String stopRequested) {
        this(key, state, instanceGuid, cellId, placedCellId, epoch, stopRequested, false);
    }

    public RecordView(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId, String placedCellId,
            UUID epoch) {
        this(key, state, instanceGuid, cellId, placedCellId, epoch, null);
    }

    public InstanceOwner owner() {
        return instanceGuid == null ? InstanceOwner.NONE : new InstanceOwner(instanceGuid, cellId);
    }

    /** CLAIMED or RUNNING: some incarnation owns the slot. */
    public boolean isOwned() {
        return state == ActualLrpState.CLAIMED || state == ActualLrpState.RUNNING;
    }

    public boolean isOwnedBy(String instanceGuid, String cellId) {
        return isOwned() && instanceGuid.equals(this.instanceGuid) && cellId.equals(this.cellId);
    }
}
