package io.drover.model.messaging;

import java.util.List;
import java.util.UUID;

/**
 * The result of one auction for one cell's tasks: the tasks it should start. Topic {@link Topics#AUCTION_RESULTS}, key
 * cell_id (so a rep reads it from its cell's partition with the cell's instance placements), message type
 * {@value #TYPE}. {@code epoch} tells a task from an earlier one of the same guid.
 */
public record TasksPlaced(UUID messageId, String cellId, UUID auctionId, List<TaskPlacement> tasks) implements Command {

    public static final String TYPE = "tasks_placed";

    public TasksPlaced {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
    }

    @Override
    public String messageType() {
        return TYPE;
    }

    /** One task placed on the cell. */
    public record TaskPlacement(String taskGuid, UUID epoch) {
    }
}
