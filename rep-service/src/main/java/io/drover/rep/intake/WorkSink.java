package io.drover.rep.intake;

import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TasksPlaced;
import java.time.Instant;
import java.util.List;

/**
 * A cell that takes work from the intake; called from the consumer thread, so it only queues. Each piece of work comes
 * with {@code done}, which the cell runs once it has handled it (claimed or rejected the placements, stopped the
 * instance or the task): only then may the intake commit the message's offset. Work never done (the rep dies first) is
 * read again by the rep's next intake.
 */
public interface WorkSink {

    /** Instances an auction placed on the cell at {@code placedAt} (when the auction result was written). */
    void placed(List<LrpsPlaced.Placement> placements, Instant placedAt, Runnable done);

    void stopRequested(LrpStopRequested request, Runnable done);

    /** Tasks an auction placed on the cell; a sink that runs no tasks ignores them. */
    default void tasksPlaced(List<TasksPlaced.TaskPlacement> tasks, Runnable done) {
        done.run();
    }

    /** A task running on the cell was cancelled: its process is to be stopped. */
    default void taskCancelled(String taskGuid, Runnable done) {
        done.run();
    }
}
