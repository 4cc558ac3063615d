package io.drover.model.messaging;

import java.util.UUID;

/** Asks a cell to stop one incarnation and remove its record. Topic {@link Topics#STOP_REQUESTS}, key cell_id. */
public record LrpStopRequested(UUID messageId, String cellId, String processGuid, int index, String instanceGuid,
        String reason) {
}
