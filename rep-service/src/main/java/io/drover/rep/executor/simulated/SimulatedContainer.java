package io.drover.rep.executor.simulated;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

/** One in-memory container: its spec, what it holds and its state; at most one timer pending. */
final class SimulatedContainer {

    final ContainerSpec spec;
    final Resources need;
    final NetInfo netInfo;
    volatile boolean stopRequested;
    volatile ScheduledFuture<?> pending;
    private final String cellId;
    private final Instant createdAt;
    private ContainerState state = ContainerState.STARTING;
    private String reason;
    private Instant runningAt;
    private Instant overAt;
    private Map<LogFollower, Boolean> followers;

    SimulatedContainer(ContainerSpec spec, Resources need, NetInfo netInfo, String cellId, Instant createdAt) {
        this.spec = spec;
        this.need = need;
        this.netInfo = netInfo;
        this.cellId = cellId;
        this.createdAt = createdAt;
    }

    /** Moves on unless the container is already over (crashed or stopped); a stopping container does not start. */
    synchronized boolean moveTo(ContainerState next, String why, Instant at) {
        if (isOver() || (next == ContainerState.RUNNING && (state != ContainerState.STARTING || stopRequested))) {
            return false;
        }
        state = next;
        reason = why;
        if (next == ContainerState.RUNNING) {
            runningAt = at;
        } else if (isOver()) {
            overAt = at;
        }
        tellFollowers();
        return true;
    }

    /** Since when the container runs; null unless it is RUNNING now (what usage is reported for). */
    synchronized Instant runningSince() {
        return state == ContainerState.RUNNING ? runningAt : null;
    }

    /** The rep's lifecycle lines of this container so far: the only log a simulated container has. */
    synchronized List<LogLine> lifecycleLines() {
        List<LogLine> lines = new ArrayList<>(3);
        lines.add(new LogLine(createdAt, LogSource.REP,
                "claimed by " + cellId + " as instance " + spec.instanceGuid() + "; starting (simulated)"));
        if (runningAt != null) {
            lines.add(new LogLine(runningAt, LogSource.REP, "running (simulated)"));
        }
        if (overAt != null) {
            lines.add(new LogLine(overAt, LogSource.REP,
                    state == ContainerState.CRASHED ? "crashed: " + reason : "stopped"));
        }
        return lines;
    }

    /** Hands later lifecycle lines to {@code follower} (if it wants the rep's lines) and ends it once over. */
    synchronized void addFollower(LogFollower follower, boolean wantsRepLines) {
        if (followers == null) {
            followers = new HashMap<>();
        }
        followers.put(follower, wantsRepLines);
    }

    private void tellFollowers() {
        if (followers == null) {
            return;
        }
        List<LogLine> lines = lifecycleLines();
        LogLine newest = lines.get(lines.size() - 1);
        followers.forEach((follower, wantsRepLines) -> {
            if (wantsRepLines) {
                follower.offer(newest);
            }
            if (isOver()) {
                follower.end();
            }
        });
        if (isOver()) {
            followers = null;
        }
    }

    synchronized boolean isOver() {
        return state == ContainerState.CRASHED || state == ContainerState.STOPPED;
    }

    synchronized Container view() {
        return new Container(spec.key(), spec.instanceGuid(), spec.definition().domain(), state, netInfo, reason,
                spec.runs());
    }

    void cancelPending() {
        ScheduledFuture<?> p = pending;
        if (p != null) {
            p.cancel(false);
        }
    }
}
