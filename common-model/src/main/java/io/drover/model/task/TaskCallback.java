package io.drover.model.task;

import java.time.Instant;

/**
 * The completion callback of a task that has a {@code completion_callback_url}, as its row keeps it: where it stands,
 * how many attempts were made, the HTTP status of the last one (null: no answer, e.g. refused or timed out), when that
 * was, and when the next one is due while it is pending (null: as soon as the task completes). Shown in the task's JSON
 * as {@code callback_status}, {@code callback_attempts}, {@code callback_last_status}, {@code callback_last_at} and
 * {@code callback_next_at}.
 */
public record TaskCallback(CallbackStatus status, int attempts, Integer lastStatus, Instant lastAt, Instant nextAt) {

    /** The callback of a newly submitted task: pending, never tried, due once the task completes. */
    static TaskCallback of(TaskDefinition definition) {
        return definition.completionCallbackUrl() == null ? null
                : new TaskCallback(CallbackStatus.PENDING, 0, null, null, null);
    }

    /** After an attempt that will be repeated at {@code next}. */
    TaskCallback retried(Integer status, Instant at, Instant next) {
        return new TaskCallback(CallbackStatus.PENDING, attempts + 1, status, at, next);
    }

    /** After the attempt that was answered 2xx. */
    TaskCallback delivered(Integer status, Instant at) {
        return new TaskCallback(CallbackStatus.DELIVERED, attempts + 1, status, at, null);
    }

    /** After the attempt that ended the retries: refused, or the last one the budget allowed. */
    TaskCallback givenUp(Integer status, Instant at) {
        return new TaskCallback(CallbackStatus.GIVEN_UP, attempts + 1, status, at, null);
    }
}
