package io.drover.rep.evacuation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Where a cell's evacuation stands. Two things start one: the rep's own drain ({@link #begin()}: SIGTERM, the admin
 * port), which ends with the cell leaving; and an operator's order read from the cell's row ({@link #order}, SPEC 18),
 * which ends with the cell staying DRAINED, and which the operator may withdraw. Either is done once a sync pass has
 * run in drain mode and no container is left; while both stand the earlier deadline counts.
 */
public final class Drain {

    /** How the cell stands: taking work, draining, or draining past its deadline. */
    public enum Mode {
        NORMAL, EVACUATING, DEADLINE_PASSED
    }

    private final Clock clock;
    private final Duration allowed;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile Instant ownDeadline;
    private volatile Instant orderedDeadline;
    private boolean synced;

    public Drain(Clock clock, Duration allowed) {
        this.clock = clock;
        this.allowed = allowed;
    }

    /** Starts the rep's own drain, which ends with the cell leaving; returns false when it had already started. */
    public synchronized boolean begin() {
        if (ownDeadline != null) {
            return false;
        }
        ownDeadline = clock.instant().plus(allowed);
        return true;
    }

    /**
     * Follows the operator's order as the cell's row holds it: drain until {@code deadline}, or (null) not at all.
     * Returns whether that changed anything.
     */
    public synchronized boolean order(Instant deadline) {
        if (Objects.equals(deadline, orderedDeadline)) {
            return false;
        }
        if (deadline == null || orderedDeadline == null) {
            synced = false; // a drain begins or ends: done only after a pass in the new mode
        }
        orderedDeadline = deadline;
        return true;
    }

    /** Draining, on the rep's own account or on an operator's order. */
    public boolean started() {
        return ownDeadline != null || orderedDeadline != null;
    }

    /** Draining on an operator's order. */
    public boolean ordered() {
        return orderedDeadline != null;
    }

    /** The drain's deadline: the earlier of the rep's own and the operator's; null when not draining. */
    public Instant deadline() {
        Instant own = ownDeadline;
        Instant ordered = orderedDeadline;
        if (own == null || ordered == null) {
            return own == null ? ordered : own;
        }
        return own.isBefore(ordered) ? own : ordered;
    }

    public Mode mode() {
        Instant d = deadline();
        if (d == null) {
            return Mode.NORMAL;
        }
        return clock.instant().isBefore(d) ? Mode.EVACUATING : Mode.DEADLINE_PASSED;
    }

    public synchronized void synced(Mode mode) {
        synced = mode != Mode.NORMAL;
    }

    /** The rep's own drain is over: the cell may leave. */
    public synchronized boolean readyToFinish(int containersLeft) {
        return ownDeadline != null && synced && containersLeft == 0 && !done.isDone();
    }

    /** The operator's drain is over (and the rep does not drain on its own): the cell stays, DRAINED. */
    public synchronized boolean readyToRest(int containersLeft) {
        return ownDeadline == null && orderedDeadline != null && synced && containersLeft == 0;
    }

    /** Completes when the rep's own drain is over and the cell left. */
    public CompletableFuture<Void> done() {
        return done;
    }
}
