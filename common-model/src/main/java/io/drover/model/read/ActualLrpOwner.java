package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.util.UUID;

/**
 * Who holds an instance slot: its state, its owner ({@code instanceGuid} and {@code cellId}, null when unowned), the
 * cell a placement is in flight to, the epoch of the record, and why its owner was asked to stop (null when nobody
 * asked). What a rep decides on. An evacuating twin reads as RUNNING, owned by the old incarnation;
 * {@code keptForDeployment} tells a deployment's twin (SPEC 14) from a draining cell's.
 */
public record ActualLrpOwner(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId,
        String placedCellId, UUID epoch, String stopRequested, boolean keptForDeployment) {

    public ActualLrpOwner(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId,
            String placedCellId, UUID epoch, String stopRequested) {
        this(key, state, instanceGuid, cellId, placedCellId, epoch, stopRequested, false);
    }
}
