package io.drover.model.task;

import io.drover.model.jdbc.StorableText;

/**
 * What a cell reports when a task's action ended: whether it failed and why, and the first bytes of its result file
 * ({@code result} empty when there is none or the task failed). Both texts come from the workload (its result file, its
 * exit, the output of what ran it), so they are made {@link StorableText storable} here: a NUL or a lone surrogate
 * becomes U+FFFD, and the completion is stored as reported otherwise. A result is text (as Diego's is), so a result
 * file that is not clean text is cleaned, never a reason to fail the task.
 */
public record TaskCompletion(String cellId, boolean failed, String failureReason, String result) {

    public TaskCompletion {
        failureReason = StorableText.of(failureReason);
        result = StorableText.of(result);
    }

    public static TaskCompletion succeeded(String cellId, String result) {
        return new TaskCompletion(cellId, false, null, result == null ? "" : result);
    }

    public static TaskCompletion failed(String cellId, String reason) {
        return new TaskCompletion(cellId, true, reason, "");
    }
}
