package io.drover.rep.sync;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.planted.PlantedBug;
import io.drover.rep.cell.Allocations;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.sync.SyncAction;
import io.drover.rep.writes.Operations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out a cell's repairs, whether the sync plan or a container event asked for them. Only ever called from the
 * cell's serial worker; the containers it is stopping are "busy" until their stop is recorded.
 */
public final class Reconciler {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    private final Executor executor;
    private final Operations ops;
    private final Allocations allocations;
    private final String cellId;
    private final StopTiming timing;
    /** Containers being stopped, and why (the reason their removal is recorded with). */
    private final Map<String, String> stopping = new HashMap<>();

    public Reconciler(Executor executor, Operations ops, Allocations allocations, String cellId, StopTiming timing) {
        this.executor = executor;
        this.ops = ops;
        this.allocations = allocations;
        this.cellId = cellId;
        this.timing = timing;
    }

    /**
     * How a cell stops its containers: {@code grace} between SIGTERM and the kill, and before the SIGTERM of a RUNNING
     * instance asked to stop (a stop request, its record's mark) {@code deregistrationDelay}, on {@code timers}: the
     * routers take the instance out of their tables when the stop is asked (SPEC 16), and it answers what was sent to
     * it meanwhile. Zero stops at once.
     */
    public record StopTiming(Duration grace, Duration deregistrationDelay, ScheduledExecutorService timers) {
    }

    public Set<String> busy() {
        return Set.copyOf(stopping.keySet());
    }

    /** What the current state of these containers asks for: RUNNING → start, CRASHED → crash, STOPPED → remove. */
    public List<SyncAction> forEvents(Collection<String> instanceGuids, boolean evacuating) {
        List<SyncAction> actions = new ArrayList<>();
        for (String guid : instanceGuids) {
            Container c = executor.container(guid).orElse(null);
            if (c == null) {
                continue;
            }
            switch (c.state()) {
                case RUNNING -> {
                    // An evacuating cell reports nothing new: the sync plan decides what its containers are worth.
                    if (!evacuating && !stopping.containsKey(guid)) {
                        actions.add(new SyncAction.Start(c));
                    }
                }
                case CRASHED -> actions.add(new SyncAction.Crash(c));
                case STOPPED -> actions.add(new SyncAction.Remove(c.key(), InstanceOwner.of(guid, cellId), c,
                        stopping.getOrDefault(guid, "container stopped")));
                case STARTING -> {
                }
            }
        }
        return actions;
    }

    public void apply(List<SyncAction> actions, int batchSize) {
        Map<ActualLrpKey, Container> starts = new LinkedHashMap<>();
        Map<ActualLrpKey, InstanceOwner> evacuations = new LinkedHashMap<>();
        for (SyncAction action : actions) {
            if (action instanceof SyncAction.Start s) {
                starts.putIfAbsent(s.container().key(), s.container());
            } else if (action instanceof SyncAction.Crash c) {
                ops.crash(c.container());
                done(c.container());
            } else if (action instanceof SyncAction.Remove r) {
                ops.remove(r.key(), r.owner(), r.reason());
                if (r.container() != null) {
                    done(r.container());
                }
            } else if (action instanceof SyncAction.Stop asked) {
                Container c = asked.container();
                log.info("stop-requested-by-record process_guid={} index={} cell={} instance_guid={} reason=\"{}\"",
                        c.key().processGuid(), c.key().index(), cellId, c.instanceGuid(), asked.reason());
                stopServing(c, "stop requested: " + asked.reason());
            } else if (action instanceof SyncAction.Destroy d) {
                destroy(d.container(), d.reason());
            } else if (action instanceof SyncAction.Evacuate e) {
                evacuations.put(e.key(), e.owner());
            }
        }
        start(List.copyOf(starts.values()), batchSize);
        ops.evacuate(evacuations);
    }

    /** A stop request: stop the container (its STOPPED event removes the record), or remove a record left alone. */
    public void stopRequested(LrpStopRequested r) {
        if (r.instanceGuid() == null) {
            return;
        }
        Container container = executor.container(r.instanceGuid()).orElse(null);
        log.info("stop-requested process_guid={} index={} cell={} instance_guid={} reason=\"{}\" container={}",
                r.processGuid(), r.index(), cellId, r.instanceGuid(), r.reason(),
                container == null ? "none" : container.state());
        if (container == null) {
            ops.remove(ActualLrpKey.of(r.processGuid(), r.index()), InstanceOwner.of(r.instanceGuid(), cellId),
                    "stop requested: " + r.reason());
        } else if (!isOver(container) && !stopping.containsKey(container.instanceGuid())) {
            stopServing(container, "stop requested: " + r.reason());
        }
    }

    /** Stops a container; its STOPPED event then removes the record (with {@code reason}) if this cell owns it. */
    public void stop(Container c, String reason) {
        stopping.put(c.instanceGuid(), reason);
        executor.stop(c.instanceGuid(), timing.grace());
    }

    /**
     * Stops a container routers were told is stopping: a RUNNING one after the deregistration delay (busy meanwhile, so
     * nothing else touches it), anything else at once.
     */
    private void stopServing(Container c, String reason) {
        Duration delay = timing.deregistrationDelay();
        if (c.state() != ContainerState.RUNNING || delay.isZero() || delay.isNegative()) {
            stop(c, reason);
            return;
        }
        String guid = c.instanceGuid();
        stopping.put(guid, reason);
        log.info("stop-after-deregistration process_guid={} index={} cell={} instance_guid={} delay_ms={}",
                c.key().processGuid(), c.key().index(), cellId, guid, delay.toMillis());
        timing.timers().schedule(() -> executor.stop(guid, timing.grace()), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void destroy(Container c, String reason) {
        ops.destroyed(c, reason);
        stop(c, "destroyed: " + reason);
    }

    private void start(List<Container> containers, int batchSize) {
        for (int from = 0; from < containers.size(); from += batchSize) {
            List<Container> chunk = containers.subList(from, Math.min(containers.size(), from + batchSize));
            Map<ActualLrpKey, Outcome> outcomes = ops.start(chunk);
            for (Container c : chunk) {
                Outcome outcome = outcomes.get(c.key());
                if (outcome != null && outcome.kind() == Outcome.Kind.REJECTED
                        && !PlantedBug.SYNC_KEEPS_DUPLICATES.planted()) {
                    destroy(c, "slot taken: " + outcome.message());
                }
            }
        }
    }

    private void done(Container c) {
        executor.forget(c.instanceGuid());
        allocations.release(c.instanceGuid());
        stopping.remove(c.instanceGuid());
    }

    private static boolean isOver(Container c) {
        return c.state() == ContainerState.CRASHED || c.state() == ContainerState.STOPPED;
    }
}
