package io.drover.model.task;

/** No task has this guid. */
public class TaskNotFoundException extends RuntimeException {

    public TaskNotFoundException(String taskGuid) {
        super("task not found: " + taskGuid);
    }
}
