package io.drover.model.messaging;

import java.util.List;
import java.util.UUID;

/**
 * The result of one auction for one cell: the instances it should claim and start. Topic {@link Topics#AUCTION_RESULTS},
 * key cell_id. {@code epoch} and {@code version} identify the record as it was placed, so a rep can tell a stale
 * placement from a current one.
 */
public record LrpsPlaced(UUID messageId, String cellId, UUID auctionId, List<Placement> placements) {

    public LrpsPlaced {
        placements = List.copyOf(placements);
    }

    /** One instance placed on the cell. */
    public record Placement(String processGuid, int index, UUID epoch, long version) {
    }
}
