package io.drover.model.messaging;

import com.fasterxml.jackson.annotation.JsonInclude;
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

    /**
     * One task placed on the cell, with what it takes of the cell ({@code memory_mb}, {@code disk_mb}), so that the
     * cell admits it without reading the task first. A placement written before issue 37 has neither (null): its cell
     * reads the task.
     */
    public record TaskPlacement(String taskGuid, UUID epoch, @JsonInclude(JsonInclude.Include.NON_NULL) Integer memoryMb,
            @JsonInclude(JsonInclude.Include.NON_NULL) Integer diskMb) {

        /** A placement as written before issue 37, without what the task takes. */
        public TaskPlacement(String taskGuid, UUID epoch) {
            this(taskGuid, epoch, null, null);
        }

        /** Whether it says what the task takes of the cell. */
        public boolean hasNeed() {
            return memoryMb != null && diskMb != null;
        }
    }
}
