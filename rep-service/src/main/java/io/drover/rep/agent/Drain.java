package io.drover.rep.agent;

import io.drover.rep.sync.SyncPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Where a cell's evacuation stands: not started, draining until a deadline, or done. It is done once a sync pass has
 * run in drain mode and no container is left.
 */
final class Drain {

    private final Clock clock;
    private final Duration allowed;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile Instant deadline;
    private boolean synced;

    Drain(Clock clock, Duration allowed) {
        this.clock = clock;
        this.allowed = allowed;
    }

    /** Starts the drain; returns false when it had already started. */
    synchronized boolean begin() {
        if (deadline != null) {
            return false;
        }
        deadline = clock.instant().plus(allowed);
        return true;
    }

    boolean started() {
        return deadline != null;
    }

    Instant deadline() {
        return deadline;
    }

    SyncPlan.Mode mode() {
        Instant d = deadline;
        if (d == null) {
            return SyncPlan.Mode.NORMAL;
        }
        return clock.instant().isBefore(d) ? SyncPlan.Mode.EVACUATING : SyncPlan.Mode.DEADLINE_PASSED;
    }

    void synced(SyncPlan.Mode mode) {
        synced = mode != SyncPlan.Mode.NORMAL;
    }

    boolean readyToFinish(int containersLeft) {
        return started() && synced && containersLeft == 0 && !done.isDone();
    }

    CompletableFuture<Void> done() {
        return done;
    }
}
