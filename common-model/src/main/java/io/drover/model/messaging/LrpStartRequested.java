package io.drover.model.messaging;

import java.util.List;
import java.util.UUID;

/** Asks the auctioneer to place these indices of one desired LRP. Topic {@link Topics#START_REQUESTS}, key process_guid. */
public record LrpStartRequested(UUID messageId, String processGuid, String domain, List<Integer> indices,
        String reason) {

    public LrpStartRequested {
        indices = List.copyOf(indices);
    }
}
