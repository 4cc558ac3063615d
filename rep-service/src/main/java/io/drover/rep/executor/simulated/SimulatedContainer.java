package io.drover.rep.executor.simulated;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;

/** One in-memory container: its spec, what it holds and its state; at most one timer pending. */
final class SimulatedContainer {

    final ContainerSpec spec;
    final Resources need;
    final NetInfo netInfo;
    volatile boolean stopRequested;
    volatile ScheduledFuture<?> pending;
    volatile Instant runningSince;
    private ContainerState state = ContainerState.STARTING;
    private String reason;

    SimulatedContainer(ContainerSpec spec, Resources need, NetInfo netInfo) {
        this.spec = spec;
        this.need = need;
        this.netInfo = netInfo;
    }

    /** Moves on unless the container is already over (crashed or stopped); a stopping container does not start. */
    synchronized boolean moveTo(ContainerState next, String why) {
        if (isOver() || (next == ContainerState.RUNNING && (state != ContainerState.STARTING || stopRequested))) {
            return false;
        }
        state = next;
        reason = why;
        return true;
    }

    synchronized boolean isRunning() {
        return state == ContainerState.RUNNING;
    }

    synchronized boolean isOver() {
        return state == ContainerState.CRASHED || state == ContainerState.STOPPED;
    }

    synchronized Container view() {
        return new Container(spec.key(), spec.instanceGuid(), spec.definition().domain(), state, netInfo, reason);
    }

    void cancelPending() {
        ScheduledFuture<?> p = pending;
        if (p != null) {
            p.cancel(false);
        }
    }
}
