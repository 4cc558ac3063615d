package io.drover.model.task;

/**
 * What a submission came to: the task, and whether this call created it (false: an identical resubmission); or, when
 * the task was deleted within the tombstone window, no task and its {@code tombstone} (an identical resubmission of a
 * task that has run: nothing runs again).
 */
public record TaskSubmission(TaskSnapshot task, boolean created, TaskTombstone tombstone) {

    public TaskSubmission(TaskSnapshot task, boolean created) {
        this(task, created, null);
    }

    /** The identical resubmission of a task deleted within the window. */
    static TaskSubmission deleted(TaskTombstone tombstone) {
        return new TaskSubmission(null, false, tombstone);
    }

    public boolean wasDeleted() {
        return tombstone != null;
    }
}
