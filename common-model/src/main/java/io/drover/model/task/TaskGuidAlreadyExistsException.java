package io.drover.model.task;

/** A task with this guid exists with a different definition; an identical resubmission is not an error. */
public class TaskGuidAlreadyExistsException extends RuntimeException {

    public TaskGuidAlreadyExistsException(String taskGuid) {
        super("a different task with guid " + taskGuid + " exists");
    }

    /** The guid was used by a task with another definition, deleted at {@code deletedAt}: it is known for a while. */
    public TaskGuidAlreadyExistsException(TaskTombstone tombstone) {
        super("a different task with guid " + tombstone.taskGuid() + " was submitted and deleted at "
                + tombstone.deletedAt() + "; a deleted task's guid stays known for a while (see drover.tasks"
                + ".tombstone-ttl)");
    }
}
