package io.drover.model.task;

/**
 * What a cell reports when a task's action ended: whether it failed and why, and the first bytes of its result file
 * ({@code result} empty when there is none or the task failed).
 */
public record TaskCompletion(String cellId, boolean failed, String failureReason, String result) {

    public static TaskCompletion succeeded(String cellId, String result) {
        return new TaskCompletion(cellId, false, null, result == null ? "" : result);
    }

    public static TaskCompletion failed(String cellId, String reason) {
        return new TaskCompletion(cellId, true, reason, "");
    }
}
