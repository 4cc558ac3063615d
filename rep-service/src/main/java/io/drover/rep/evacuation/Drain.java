package io.drover.rep.evacuation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Where a cell's evacuation stands: not started, draining until a deadline, or done. It is done once a sync pass has
 * run in drain mode and no container is left.
 */
public final class Drain {

    /** How the cell stands: taking work, draining, or draining past its deadline. */
    public enum Mode {
        NORMAL, EVACUATING, DEADLINE_PASSED
    }

    private final Clock clock;
    private final Duration allowed;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile Instant deadline;
    private boolean synced;

    public Drain(Clock clock, Duration allowed) {
        this.clock = clock;
        this.allowed = allowed;
    }

    /** Starts the drain; returns false when it had already started. */
    public synchronized boolean begin() {
        if (deadline != null) {
            return false;
        }
        deadline = clock.instant().plus(allowed);
        return true;
    }

    public boolean started() {
        return deadline != null;
    }

    public Instant deadline() {
        return deadline;
    }

    public Mode mode() {
        Instant d = deadline;
        if (d == null) {
            return Mode.NORMAL;
        }
        return clock.instant().isBefore(d) ? Mode.EVACUATING : Mode.DEADLINE_PASSED;
    }

    public void synced(Mode mode) {
        synced = mode != Mode.NORMAL;
    }

    public boolean readyToFinish(int containersLeft) {
        return started() && synced && containersLeft == 0 && !done.isDone();
    }

    public CompletableFuture<Void> done() {
        return done;
    }
}
