package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;

/**
 * The columns of an actual LRP that convergence decides on: its state and owning cell, its crash count, when it last
 * changed ({@code since}) and the placement in flight ({@code placedCellId}, {@code placedAt}; null when none).
 */
public record ActualLrpSummary(String processGuid, int index, String domain, ActualLrpState state, String cellId,
        int crashCount, Instant since, String placedCellId, Instant placedAt) {

    /** The instance slot. */
    public ActualLrpKey key() {
        return ActualLrpKey.of(processGuid, index);
    }
}
