package io.drover.converger.callback;

import java.time.Duration;

/**
 * What to do with the answer to a completion callback, as one pure function: any 2xx resolves the task; a 503, a 504,
 * a connection failure or a timeout is tried again after a back-off that doubles (250 ms up to 5 s) for as long as
 * {@code retryFor} allows; anything else (or the time running out) gives up, and the task stays COMPLETED for a client
 * to resolve.
 */
final class CallbackPolicy {

    static final Duration FIRST_BACKOFF = Duration.ofMillis(250);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    private CallbackPolicy() {
    }

    /** The verdict on one attempt; {@code delay} is the pause before the next one when it is RETRY. */
    record Decision(Verdict verdict, Duration delay) {
    }

    enum Verdict {
        RESOLVE, RETRY, GIVE_UP
    }

    /**
     * @param status the HTTP status, or null when there was no answer (connection refused, reset, timed out)
     * @param attempt 1 for the first attempt
     * @param elapsed time since the first attempt started
     */
    static Decision decide(Integer status, int attempt, Duration elapsed, Duration retryFor) {
        if (status != null && status >= 200 && status < 300) {
            return new Decision(Verdict.RESOLVE, Duration.ZERO);
        }
        boolean retryable = status == null || status == 503 || status == 504;
        Duration delay = backoff(attempt);
        if (retryable && elapsed.plus(delay).compareTo(retryFor) <= 0) {
            return new Decision(Verdict.RETRY, delay);
        }
        return new Decision(Verdict.GIVE_UP, Duration.ZERO);
    }

    static Duration backoff(int attempt) {
        long millis = FIRST_BACKOFF.toMillis() << Math.min(Math.max(attempt - 1, 0), 10);
        return millis > MAX_BACKOFF.toMillis() ? MAX_BACKOFF : Duration.ofMillis(millis);
    }
}
