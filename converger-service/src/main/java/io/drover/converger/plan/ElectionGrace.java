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
 * <p>The same grace follows a database outage (docs/ha.md, {@link #afterOutage}): the reps could not beat while the
 * database was away, so a presence that ran out then (or runs out before they reach it again) says nothing about its
 * cell.
 *
 * @param judgedThrough when the last pass before the grace judged ({@link Instant#MIN}: none ever did)
 * @param sparesThrough the last presence expiry it spares: the election, or after an outage the grace's end
 * @param until when the grace ends
 */
public record ElectionGrace(Instant judgedThrough, Instant sparesThrough, Instant until) {

    /** No grace: a leader that has not been elected, or a test that has no use for one. */
    public static final ElectionGrace NONE = new ElectionGrace(Instant.MIN, Instant.MIN, Instant.MIN);

    /** The grace of a leader elected at {@code electedAt}; {@code lastPass} null when no pass ever finished. */
    public static ElectionGrace of(Instant lastPass, Instant electedAt, Duration grace) {
        return new ElectionGrace(lastPass == null ? Instant.MIN : lastPass, electedAt, electedAt.plus(grace));
    }

    /**
     * The grace of a leader that reached the database again at {@code back} after it could not (or was elected just
     * then): until {@code back + grace} it spares every cell whose presence ran out after {@code lastPass}, those that
     * run out meanwhile included, since each rep reaches the database again in its own time (its next heartbeat, its
     * pool's next connection, the new primary found). {@code lastPass} null when no pass ever finished.
     */
    public static ElectionGrace afterOutage(Instant lastPass, Instant back, Duration grace) {
        Instant until = back.plus(grace);
        return new ElectionGrace(lastPass == null ? Instant.MIN : lastPass, until, until);
    }

    /** Whether it still spares anything at {@code now}. */
    public boolean isRunning(Instant now) {
        return now.isBefore(until);
    }

    /** Whether a cell whose presence expired at {@code expiredAt} (null: it has no presence row) is spared now. */
    public boolean spares(Instant expiredAt, Instant now) {
        return expiredAt != null && isRunning(now) && expiredAt.isAfter(judgedThrough)
                && !expiredAt.isAfter(sparesThrough);
    }
}
