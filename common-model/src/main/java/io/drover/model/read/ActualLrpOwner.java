package io.drover.model.read;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.util.UUID;

/**
 * Who holds an instance slot: its state, its owner ({@code instanceGuid} and {@code cellId}, null when unowned), the
 * cell a placement is in flight to, and the epoch of the record. What a rep decides on.
 */
public record ActualLrpOwner(ActualLrpKey key, ActualLrpState state, String instanceGuid, String cellId,
        String placedCellId, UUID epoch) {
}
