package io.drover.rep.executor.process;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.rep.executor.ContainerState;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the process trees of one executor's containers from a single scheduled tick (every 100 ms, reading the
 * process table only when a container is terminating or a sample is due). Sampling enforces memory and max_pids,
 * notices adopted or daemonised trees that died, and caps log files; reaping SIGKILLs a terminating tree once its
 * grace has passed, again on every tick until nothing of it is left, then settles the container.
 */
final class TreeWatcher {

    private static final Logger log = LoggerFactory.getLogger(TreeWatcher.class);

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

    /** SIGKILL once the grace has passed (at once for a crash), SIGTERM before. */
    private static void signal(ProcessContainer container, List<ProcStat> members, Instant now) {
        if (container.killDue(now)) {
            Signals.kill(members);
        } else {
            Signals.terminate(members);
        }
    }

    private void tick() {
        try {
            Instant now = runtime.clock().instant();
            boolean sample = !now.isBefore(nextSample);
            List<ProcessContainer> watched = containers.get().stream().filter(c -> !c.isTerminal()).toList();
            if (watched.isEmpty() || !sample && watched.stream().noneMatch(ProcessContainer::isTerminating)) {
                return;
            }
            ProcTable table = ProcTable.read();
            for (ProcessContainer container : watched) {
                container.roots().ifPresent(roots -> watch(container, table.members(roots), now, sample));
            }
            if (sample) {
                nextSample = now.plus(runtime.properties().sampleInterval());
            }
        } catch (RuntimeException e) {
            log.warn("watch-trees-failed", e);
        }
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
            runtime.ports().release(container.hostPorts());
            try {
                Files.deleteIfExists(container.dir().pidFile());
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
        if (definition.memoryMb() > 0 && rss > definition.memoryMb() * 1024L * 1024L) {
            log.info("container-out-of-memory instance_guid={} rss_bytes={} memory_mb={}",
                    container.spec().instanceGuid(), rss, definition.memoryMb());
            terminate(container, ContainerState.CRASHED, "out of memory", Duration.ZERO);
        } else if (definition.maxPids() > 0 && members.size() > definition.maxPids()) {
            terminate(container, ContainerState.CRASHED,
                    "too many processes: " + members.size() + " > max_pids " + definition.maxPids(), Duration.ZERO);
        }
    }

    private void capLogs(ProcessContainer container) {
        long cap = runtime.properties().logCap().toBytes();
        try {
            container.journal().capRaw(cap);
        } catch (IOException e) {
            log.warn("cap-logs-failed instance_guid={}", container.spec().instanceGuid(), e);
        }
    }
}
