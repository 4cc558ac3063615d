package io.drover.rep.executor.process;

import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;

/**
 * One container's lifecycle and the process tree behind it; what it is and owns (spec, ports, directory, journal,
 * cgroup) is its {@link PlacedInstance}. Its transitions are synchronized and publish their event while holding the
 * lock, so listeners see a container's events in the order they happened, and write the rep's lifecycle lines to its
 * journal. A terminating container keeps its visible state until its tree is gone, then becomes CRASHED or STOPPED
 * once.
 */
final class ProcessContainer {

    private final PlacedInstance instance;

    private final boolean adopted;

    private final Consumer<Container> publisher;

    private Process process;

    private final ProcessTree tree = new ProcessTree();

    private boolean daemonised;

    private boolean settled;

    private ContainerState state;

    private String reason;

    private Termination termination;

    private ScheduledFuture<?> healthPoll;

    private String lastHealthFailure;

    ProcessContainer(PlacedInstance instance, Consumer<Container> publisher) {
        this(instance, publisher, null);
    }

    private ProcessContainer(PlacedInstance instance, Consumer<Container> publisher, PidFile adoptedFrom) {
        this.instance = instance;
        this.publisher = publisher;
        this.adopted = adoptedFrom != null;
        this.state = adopted && adoptedFrom.running() ? ContainerState.RUNNING : ContainerState.STARTING;
        if (adopted) {
            this.settled = true;
            this.tree.lead(new ProcessIdentity(adoptedFrom.pid(), adoptedFrom.startTime()), adoptedFrom.session());
            this.daemonised = adoptedFrom.daemonised();
        }
    }

    /** A container a previous rep left, running the tree its pid file names. */
    static ProcessContainer adopt(PidFile file, PlacedInstance instance, Consumer<Container> publisher) {
        instance.journal().skipExistingOutput();
        instance.journal().rep("re-adopted by the rep after its restart (pid " + file.pid()
                + "); output written while no rep ran is only in stdout.log and stderr.log");
        return new ProcessContainer(instance, publisher, file);
    }

    PlacedInstance instance() {
        return instance;
    }

    ContainerSpec spec() {
        return instance.spec();
    }

    ProcessTree tree() {
        return tree;
    }

    synchronized Container snapshot() {
        ContainerSpec spec = instance.spec();
        return new Container(spec.key(), spec.instanceGuid(), spec.definition().domain(), state, instance.netInfo(),
                reason, spec.runs());
    }

    synchronized void publishCurrent() {
        publisher.accept(snapshot());
    }

    /**
     * Records the launched leader. False when the container has meanwhile finished (stopped before it ever ran): the
     * caller then kills what it launched. A container told to stop while launching is reaped by the next tick.
     */
    synchronized boolean attach(Process launched, ProcessIdentity identity, long leaderSession) {
        settled = true;
        if (isTerminal()) {
            return false;
        }
        this.process = launched;
        tree.lead(identity, leaderSession);
        writePidFile();
        instance.journal().rep("process started (pid " + identity.pid() + ")");
        return true;
    }

    /** Nothing was launched (stopped first, or the launch failed): the tick may settle it with an empty tree. */
    synchronized void settleWithoutProcess() {
        settled = true;
    }

    /** The tree's identity as of now; empty while a launch is in flight, so no tick mistakes it for a dead tree. */
    synchronized Optional<TreeRoots> roots() {
        return settled ? Optional.of(tree.roots()) : Optional.empty();
    }

    /**
     * Why an empty tree means the container is gone when no exit status will say so: the rep is not the parent of an
     * adopted tree, and a daemonised leader has already exited. Empty for a launched leader, whose exit reports itself.
     */
    synchronized Optional<String> lostTreeReason() {
        if (adopted) {
            return Optional.of("exited (adopted process, status unknown)");
        }
        return daemonised ? Optional.of("exited (daemonised process, status unknown)") : Optional.empty();
    }

    /** A daemonised container lives on without its leader, for as long as other members of its tree do. */
    synchronized boolean isDaemonised() {
        return daemonised;
    }

    synchronized boolean leaderReaped() {
        return process == null || !process.isAlive();
    }

    synchronized boolean isActive() {
        return termination == null && (state == ContainerState.STARTING || state == ContainerState.RUNNING);
    }

    synchronized boolean isTerminating() {
        return termination != null;
    }

    synchronized boolean isTerminal() {
        return state == ContainerState.CRASHED || state == ContainerState.STOPPED;
    }

    synchronized boolean isStarting() {
        return state == ContainerState.STARTING && termination == null;
    }

    synchronized boolean markRunning() {
        if (state != ContainerState.STARTING || termination != null) {
            return false;
        }
        state = ContainerState.RUNNING;
        writePidFile();
        instance.journal().rep(HealthProbe.hasChecks(spec().definition()) ? "health check passed; running"
                : "running");
        publisher.accept(snapshot());
        return true;
    }

    synchronized void markDaemonised() {
        daemonised = true;
        writePidFile();
    }

    /**
     * Starts terminating towards {@code goal}, SIGKILL due at {@code killAt}; returns whether this call started it. A
     * stop overrides a crash already under way (the rep asked for it); any other later request is ignored.
     */
    synchronized boolean terminate(ContainerState goal, String why, Instant killAt) {
        if (isTerminal() || (termination != null && goal != ContainerState.STOPPED)) {
            return false;
        }
        boolean first = termination == null;
        if (goal == ContainerState.STOPPED && (first || termination.goal() != ContainerState.STOPPED)) {
            instance.journal().rep("stopping (SIGTERM, then SIGKILL once the grace period is over)");
        }
        termination = first ? new Termination(goal, why, killAt, false)
                : new Termination(goal, why, termination.killAt(), termination.signalled());
        cancelHealthPoll();
        return first;
    }

    /** True exactly once per termination, on the first tick that can see its tree (after any launch in flight). */
    synchronized boolean claimFirstSignal() {
        if (termination == null || !settled || termination.signalled()) {
            return false;
        }
        termination = new Termination(termination.goal(), termination.reason(), termination.killAt(), true);
        return true;
    }

    synchronized boolean killDue(Instant now) {
        return termination != null && !now.isBefore(termination.killAt());
    }

    /** The tree is gone: settles on the goal state and publishes it once. */
    synchronized boolean finish() {
        if (termination == null) {
            return false;
        }
        state = termination.goal();
        reason = termination.reason();
        termination = null;
        instance.journal().close(state == ContainerState.CRASHED ? "crashed: " + reason : "stopped");
        publisher.accept(snapshot());
        return true;
    }

    /** A stop of a container that already crashed: it is stopped now, nothing is left to kill. */
    synchronized boolean stopCrashed() {
        if (state != ContainerState.CRASHED) {
            return false;
        }
        state = ContainerState.STOPPED;
        reason = null;
        publisher.accept(snapshot());
        return true;
    }

    /** A failed check while starting: said once per distinct reason, not on every half-second poll. */
    synchronized void healthCheckFailed(String why) {
        if (!why.equals(lastHealthFailure)) {
            lastHealthFailure = why;
            instance.journal().rep("health check failed: " + why + " (still starting)");
        }
    }

    synchronized void replaceHealthPoll(ScheduledFuture<?> next) {
        cancelHealthPoll();
        healthPoll = isActive() ? next : null;
        if (healthPoll == null) {
            next.cancel(false);
        }
    }

    synchronized void cancelHealthPoll() {
        if (healthPoll != null) {
            healthPoll.cancel(false);
            healthPoll = null;
        }
    }

    private void writePidFile() {
        ProcessIdentity leader = tree.leader();
        if (leader == null) {
            return;
        }
        ContainerSpec spec = instance.spec();
        NetInfo netInfo = instance.netInfo();
        new PidFile(leader.pid(), leader.startTime(), tree.session(), instance.cellId(), spec.key().processGuid(),
                spec.key().index(), spec.instanceGuid(), spec.definition().domain(), netInfo.address(),
                netInfo.ports(), state == ContainerState.RUNNING, daemonised, instance.startedAt().toEpochMilli(),
                spec.definition(), PidFile.dirsOf(instance.cgroup().orElse(null)), spec.runs())
                .write(instance.dir().pidFile());
    }

    /** Where a terminating container is headed, when its tree gets SIGKILL, and whether it was signalled yet. */
    private record Termination(ContainerState goal, String reason, Instant killAt, boolean signalled) {
    }
}
