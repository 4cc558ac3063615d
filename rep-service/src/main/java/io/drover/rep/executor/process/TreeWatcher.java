package io.drover.rep.executor.process;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the process trees of one executor's containers from a single scheduled tick (every 100 ms, doing work only
 * when a container is terminating or a sample is due). A container with a cgroup is its cgroup's members: the kernel
 * enforces its limits, the sample only notices OOM kills and adopted or daemonised trees that died, and a kill freezes
 * the cgroup first. Without one, the sample reads the process table and enforces memory and max_pids itself. Either
 * way the sample caps log files, and reaping SIGKILLs a terminating tree once its grace has passed, again on every tick
 * until nothing of it is left, then settles the container.
 */
final class TreeWatcher {

    private static final Logger log = LoggerFactory.getLogger(TreeWatcher.class);

    static final String OUT_OF_MEMORY = "out of memory";

    private static final Duration TICK = Duration.ofMillis(100);

    private final ProcessRuntime runtime;

    private final Supplier<Collection<ProcessContainer>> containers;

    private Instant nextSample = Instant.MIN;

    private ScheduledFuture<?> ticking;

    TreeWatcher(ProcessRuntime runtime, Supplier<Collection<ProcessContainer>> containers) {
        this.runtime = runtime;
        this.containers = containers;
    }

    void start() {
        ticking = runtime.scheduler().scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void close() {
        if (ticking != null) {
            ticking.cancel(false);
        }
    }

    /**
     * Starts terminating a container and returns: the next tick (within 100 ms) sends SIGTERM to its tree, or SIGKILL
     * when {@code grace} is 0, and SIGKILL once the grace has passed. Callers never wait on a /proc scan.
     */
    void terminate(ProcessContainer container, ContainerState goal, String reason, Duration grace) {
        if (!container.terminate(goal, reason, runtime.clock().instant().plus(grace))) {
            return;
        }
        log.info("terminate-container instance_guid={} process_guid={} index={} goal={} reason=\"{}\" grace_ms={}",
                container.spec().instanceGuid(), container.spec().key().processGuid(), container.spec().key().index(),
                goal, reason == null ? "" : reason, grace.toMillis());
    }

    /** Whether the kernel's OOM killer has killed any process of the container's cgroup. */
    static boolean outOfMemory(ProcessContainer container) {
        return container.instance().cgroup().map(InstanceCgroup::oomKills).orElse(0L) > 0;
    }

    /** SIGKILL once the grace has passed (at once for a crash), to the whole cgroup if it has one; SIGTERM before. */
    private static void signal(ProcessContainer container, List<ProcStat> members, Instant now) {
        if (!container.killDue(now)) {
            Signals.terminate(members);
        } else if (container.instance().cgroup().isPresent()) {
            container.instance().cgroup().get().kill();
        } else {
            Signals.kill(members);
        }
    }

    /** One tick; the scheduler runs it every 100 ms (package-private so that its cost can be measured). */
    void tick() {
        try {
            Instant now = runtime.clock().instant();
            boolean sample = !now.isBefore(nextSample);
            List<ProcessContainer> watched = containers.get().stream().filter(c -> !c.isTerminal()).toList();
            if (watched.isEmpty() || !sample && watched.stream().noneMatch(ProcessContainer::isTerminating)) {
                return;
            }
            ProcTable[] table = new ProcTable[1];
            for (ProcessContainer container : watched) {
                Optional<InstanceCgroup> cgroup = container.instance().cgroup();
                if (cgroup.isEmpty()) {
                    container.roots().ifPresent(roots -> watch(container, table(table).members(roots), now, sample));
                } else if (sample || container.isTerminating()) {
                    container.roots().ifPresent(roots -> watchCgroup(container, cgroup.get(), now, sample));
                }
            }
            if (sample) {
                nextSample = now.plus(runtime.properties().sampleInterval());
            }
        } catch (RuntimeException e) {
            log.warn("watch-trees-failed", e);
        }
    }

    /** The machine's process table, read at most once per tick and only for containers without a cgroup. */
    private static ProcTable table(ProcTable[] once) {
        if (once[0] == null) {
            once[0] = ProcTable.read();
        }
        return once[0];
    }

    private void watchCgroup(ProcessContainer container, InstanceCgroup cgroup, Instant now, boolean sample) {
        if (container.isTerminating()) {
            reap(container, members(cgroup), now);
            return;
        }
        if (outOfMemory(container)) {
            log.info("container-out-of-memory instance_guid={} oom_kills={}", container.spec().instanceGuid(),
                    cgroup.oomKills());
            terminate(container, ContainerState.CRASHED, OUT_OF_MEMORY, Duration.ZERO);
            return;
        }
        Optional<String> lost = container.lostTreeReason();
        if (lost.isPresent() && treeGone(container, members(cgroup))) {
            terminate(container, ContainerState.CRASHED, lost.get(), Duration.ZERO);
            return;
        }
        capLogs(container);
    }

    /**
     * For a tree no exit status reports on: a daemonised one is gone when its cgroup is empty, an adopted one when its
     * leader is (its leftovers are then killed, as they would be after a launched leader's exit).
     */
    static boolean treeGone(ProcessContainer container, List<ProcStat> members) {
        if (container.isDaemonised()) {
            return members.isEmpty();
        }
        ProcessIdentity leader = container.tree().leader();
        return leader == null || members.stream().noneMatch(m -> ProcessIdentity.of(m).equals(leader));
    }

    /** The live processes of a cgroup (zombies have exited; only their parent's wait is missing). */
    private static List<ProcStat> members(InstanceCgroup cgroup) {
        return ProcTable.alive(cgroup.pids());
    }

    private void watch(ProcessContainer container, List<ProcStat> members, Instant now, boolean sample) {
        container.tree().remember(members);
        if (container.isTerminating()) {
            reap(container, members, now);
        } else if (sample) {
            inspect(container, members);
            capLogs(container);
        }
    }

    private void reap(ProcessContainer container, List<ProcStat> members, Instant now) {
        if (members.isEmpty() && container.leaderReaped()) {
            runtime.sandbox().release(container.instance().sandboxed());
            container.instance().cgroup().ifPresent(InstanceCgroup::remove);
            runtime.ports().release(container.instance().hostPorts());
            try {
                Files.deleteIfExists(container.instance().dir().pidFile());
            } catch (IOException e) {
                log.warn("delete-pid-file-failed instance_guid={}", container.spec().instanceGuid(), e);
            }
            if (container.finish()) {
                log.info("container-finished instance_guid={} state={} reason=\"{}\"",
                        container.spec().instanceGuid(), container.snapshot().state(), container.snapshot().reason());
            }
        } else if (container.claimFirstSignal() || container.killDue(now)) {
            signal(container, members, now);
        }
    }

    private void inspect(ProcessContainer container, List<ProcStat> members) {
        DesiredLrpDefinition definition = container.spec().definition();
        if (members.isEmpty()) {
            container.lostTreeReason()
                    .ifPresent(reason -> terminate(container, ContainerState.CRASHED, reason, Duration.ZERO));
            return;
        }
        long rss = ProcTable.rssBytes(members);
        container.instance().meter().treeSampled(rss, ProcTable.cpuNanos(members));
        if (definition.memoryMb() > 0 && rss > definition.memoryMb() * 1024L * 1024L) {
            log.info("container-out-of-memory instance_guid={} rss_bytes={} memory_mb={}",
                    container.spec().instanceGuid(), rss, definition.memoryMb());
            terminate(container, ContainerState.CRASHED, OUT_OF_MEMORY, Duration.ZERO);
        } else if (definition.maxPids() > 0 && members.size() > definition.maxPids()) {
            terminate(container, ContainerState.CRASHED,
                    "too many processes: " + members.size() + " > max_pids " + definition.maxPids(), Duration.ZERO);
        }
    }

    private void capLogs(ProcessContainer container) {
        long cap = runtime.properties().logCap().toBytes();
        try {
            container.instance().journal().capRaw(cap);
        } catch (IOException e) {
            log.warn("cap-logs-failed instance_guid={}", container.spec().instanceGuid(), e);
        }
    }
}
