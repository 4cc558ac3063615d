package io.drover.converger.plan;

import java.time.Duration;
import java.time.Instant;

/**
 * A new leader's grace (docs/converger.md), as Nomad resets its clients' heartbeat timers on a leader election: for
 * {@code until - electedAt} after its election, the leader does not replace the work of a cell whose presence ran out
 * while no converger judged it, that is after the last pass any converger finished ({@code judgedThrough}) and no
 * later than the election. It spares nothing else: a cell that dies while this leader watches it is judged as always,
 * and a cell some pass already saw dead is not spared again by a later election, so flapping leadership cannot put a
 * repair off for ever. The grace is a judgement only: cells stay expired in {@code cells}, so nothing is scheduled
 * onto them.
 *
 * @param judgedThrough when the last pass of any converger before this election finished ({@link Instant#MIN}: none
 *     ever did)
 * @param electedAt when this leader was elected
 * @param until when the grace ends
 */
public record ElectionGrace(Instant judgedThrough, Instant electedAt, Instant until) {

    /** No grace: a leader that has not been elected, or a test that has no use for one. */
    public static final ElectionGrace NONE = new ElectionGrace(Instant.MIN, Instant.MIN, Instant.MIN);

    /** The grace of a leader elected at {@code electedAt}; {@code lastPass} null when no pass ever finished. */
    public static ElectionGrace of(Instant lastPass, Instant electedAt, Duration grace) {
        return new ElectionGrace(lastPass == null ? Instant.MIN : lastPass, electedAt, electedAt.plus(grace));
    }

    /** Whether it still spares anything at {@code now}. */
    public boolean isRunning(Instant now) {
        return now.isBefore(until);
    }

    /** Whether a cell whose presence expired at {@code expiredAt} (null: it has no presence row) is spared now. */
    public boolean spares(Instant expiredAt, Instant now) {
        return expiredAt != null && isRunning(now) && expiredAt.isAfter(judgedThrough)
                && !expiredAt.isAfter(electedAt);
    }
}
