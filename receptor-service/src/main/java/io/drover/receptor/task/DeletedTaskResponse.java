package io.drover.receptor.task;

import io.drover.model.task.TaskTombstone;
import java.time.Instant;

/**
 * The answer (200) to a submission identical to one whose task has completed and been deleted within the tombstone
 * window: the task is not run again, and all that is left to show is that it existed. {@code deleted} is always true.
 */
record DeletedTaskResponse(String taskGuid, String domain, boolean deleted, Instant deletedAt) {

    static DeletedTaskResponse of(TaskTombstone tombstone) {
        return new DeletedTaskResponse(tombstone.taskGuid(), tombstone.domain(), true, tombstone.deletedAt());
    }
}
