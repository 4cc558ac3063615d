package io.drover.model.task;

import java.time.Instant;
import java.util.Objects;

/**
 * How one attempt of a task's completion callback ended, as its sender judged it: the HTTP status (null when no answer
 * came) and what follows: {@link CallbackStatus#DELIVERED} (the task is resolved and deleted),
 * {@link CallbackStatus#PENDING} (another attempt at {@code nextAttemptAt}) or {@link CallbackStatus#GIVEN_UP} (the
 * task stays COMPLETED for a client, or its expiry).
 */
public record CallbackAnswer(Integer status, CallbackStatus next, Instant nextAttemptAt) {

    public CallbackAnswer {
        Objects.requireNonNull(next);
        if (next == CallbackStatus.PENDING) {
            Objects.requireNonNull(nextAttemptAt, "a retried callback needs its next attempt's time");
        }
    }

    public static CallbackAnswer delivered(int status) {
        return new CallbackAnswer(status, CallbackStatus.DELIVERED, null);
    }

    public static CallbackAnswer retryAt(Integer status, Instant next) {
        return new CallbackAnswer(status, CallbackStatus.PENDING, next);
    }

    public static CallbackAnswer givenUp(Integer status) {
        return new CallbackAnswer(status, CallbackStatus.GIVEN_UP, null);
    }

    /** For the audit trail: what the receiver said. */
    String describe() {
        return status == null ? "no answer" : "status " + status;
    }
}
