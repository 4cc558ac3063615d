package io.drover.model.messaging;

import java.util.UUID;

/**
 * Asks a cell to stop the process of a task that was cancelled while it ran there. Topic {@link Topics#STOP_REQUESTS},
 * key cell_id (the cell's partition, with its instances' stop requests), message type {@value #TYPE}.
 */
public record TaskCancelRequested(UUID messageId, String cellId, String taskGuid, String reason) implements Command {

    public static final String TYPE = "task_cancel_requested";

    @Override
    public String messageType() {
        return TYPE;
    }
}
