package io.drover.model.task;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.drover.model.lrp.ModificationTag;
import java.time.Instant;

/**
 * An immutable view of a {@link Task} in the shape of the receptor's task JSON: the submitted fields, then the state,
 * the cell it runs (or ran) on, the outcome ({@code failed}, {@code failure_reason}, {@code result}), why it waits for
 * a cell ({@code placement_error}), its times and, when it has a callback URL, where its completion callback stands
 * ({@code callback_status}, {@code callback_attempts}, {@code callback_last_status}, {@code callback_last_at},
 * {@code callback_next_at}: see {@link TaskCallback}). Used as the API response, the {@code before}/{@code after} of
 * task events and the body of a completion callback.
 */
public record TaskSnapshot(@JsonUnwrapped TaskDefinition definition, TaskState state, String cellId, boolean failed,
        String failureReason, String result, String placementError, Instant createdAt, Instant updatedAt,
        Instant firstCompletedAt,
        @JsonUnwrapped(prefix = "callback_") TaskCallback callback,
        ModificationTag modificationTag) {

    public String taskGuid() {
        return definition.taskGuid();
    }
}
