package io.drover.rep.evacuation;

import io.drover.rep.sync.SyncPlan;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Where a cell's evacuation stands: not started, draining until a deadline, or done. It is done once a sync pass has
 * run in drain mode and no container is left.
 */
public final class Drain {

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

    public SyncPlan.Mode mode() {
        Instant d = deadline;
        if (d == null) {
            return SyncPlan.Mode.NORMAL;
        }
        return clock.instant().isBefore(d) ? SyncPlan.Mode.EVACUATING : SyncPlan.Mode.DEADLINE_PASSED;
    }

    public void synced(SyncPlan.Mode mode) {
        synced = mode != SyncPlan.Mode.NORMAL;
    }

    public boolean readyToFinish(int containersLeft) {
        return started() && synced && containersLeft == 0 && !done.isDone();
    }

    public CompletableFuture<Void> done() {
        return done;
    }
}
