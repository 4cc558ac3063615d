package io.drover.converger.callback;

import io.drover.model.planted.PlantedBug;
import io.drover.model.task.CallbackAnswer;
import java.time.Duration;
import java.time.Instant;

/**
 * What to do with the answer to one attempt of a completion callback, as one pure function (SPEC 13):
 * <ul>
 * <li>any 2xx: delivered, the task is resolved;</li>
 * <li>503, 504, 429 (the receiver is busy or throttles a burst), or no answer at all (refused, reset, timed out): tried
 * again after a back-off that doubles from {@code firstBackoff} up to {@code maxBackoff}, while the budget lasts
 * ({@code maxAttempts}, and {@code retryFor} since the task completed);</li>
 * <li>anything else (another 5xx, 4xx, a redirect, which is never followed), or the budget spent: given up at once;
 * the receiver answered and said no, and repeating the POST would not change its mind. The task stays COMPLETED,
 * {@code callback_status} given_up, for a client to resolve (or for its expiry).</li>
 * </ul>
 */
final class CallbackPolicy {

    private CallbackPolicy() {
    }

    /** How far a callback may be retried. */
    record Budget(int maxAttempts, Duration retryFor, Duration firstBackoff, Duration maxBackoff) {
    }

    enum Verdict {
        DELIVERED, RETRY, GIVE_UP
    }

    /** The verdict on one attempt; {@code delay} is the pause before the next one when it is RETRY. */
    record Decision(Verdict verdict, Duration delay) {
    }

    /**
     * @param status the HTTP status, or null when there was no answer
     * @param attempt 1 for the first attempt
     * @param sinceCompleted time since the task completed
     */
    static Decision decide(Integer status, int attempt, Duration sinceCompleted, Budget budget) {
        if (status != null && status >= 200 && status < 300) {
            return new Decision(Verdict.DELIVERED, Duration.ZERO);
        }
        Duration delay = backoff(attempt, budget);
        if (retryable(status) && attempt < budget.maxAttempts()
                && sinceCompleted.plus(delay).compareTo(budget.retryFor()) <= 0) {
            return new Decision(Verdict.RETRY, delay);
        }
        return new Decision(Verdict.GIVE_UP, Duration.ZERO);
    }

    static boolean retryable(Integer status) {
        return !PlantedBug.CALLBACK_RETRY.planted()
                && (status == null || status == 429 || status == 503 || status == 504);
    }

    /** The pause after attempt number {@code attempt}. */
    static Duration backoff(int attempt, Budget budget) {
        long millis = budget.firstBackoff().toMillis() << Math.min(Math.max(attempt - 1, 0), 20);
        return millis > budget.maxBackoff().toMillis() || millis < 0 ? budget.maxBackoff() : Duration.ofMillis(millis);
    }

    /** The decision as the task's lifecycle records it, at {@code now}. */
    static CallbackAnswer answer(Decision decision, Integer status, Instant now) {
        return switch (decision.verdict()) {
            case DELIVERED -> CallbackAnswer.delivered(status);
            case RETRY -> CallbackAnswer.retryAt(status, now.plus(decision.delay()));
            case GIVE_UP -> CallbackAnswer.givenUp(status);
        };
    }
}
