package io.drover.model.task;

/** A task with this guid exists with a different definition; an identical resubmission is not an error. */
public class TaskGuidAlreadyExistsException extends RuntimeException {

    public TaskGuidAlreadyExistsException(String taskGuid) {
        super("a different task with guid " + taskGuid + " exists");
    }
}
