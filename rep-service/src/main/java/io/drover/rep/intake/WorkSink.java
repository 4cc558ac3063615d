package io.drover.rep.intake;

import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TasksPlaced;
import java.time.Instant;
import java.util.List;

/** A cell that takes work from the intake; called from the consumer thread, so it only queues. */
public interface WorkSink {

    /** Instances an auction placed on the cell at {@code placedAt} (when the auction result was written). */
    void placed(List<LrpsPlaced.Placement> placements, Instant placedAt);

    void stopRequested(LrpStopRequested request);

    /** Tasks an auction placed on the cell; a sink that runs no tasks ignores them. */
    default void tasksPlaced(List<TasksPlaced.TaskPlacement> tasks) {
    }

    /** A task running on the cell was cancelled: its process is to be stopped. */
    default void taskCancelled(String taskGuid) {
    }
}
