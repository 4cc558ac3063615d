package io.drover.model.task;

/**
 * A task operation the transition table forbids (cancelling a completed task, deleting a running one, a cell
 * completing a task it does not run). A decision, not a failure: never retried.
 */
public class IllegalTaskTransitionException extends RuntimeException {

    private final String taskGuid;

    public IllegalTaskTransitionException(String taskGuid, String message) {
        super("task " + taskGuid + ": " + message);
        this.taskGuid = taskGuid;
    }

    public String taskGuid() {
        return taskGuid;
    }
}
