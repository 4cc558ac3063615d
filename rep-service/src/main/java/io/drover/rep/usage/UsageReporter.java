package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.drover.model.usage.UsageRound;
import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.UsageChanges;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Every {@code interval}, measures every container of every cell of this rep (their executors read cgroup accounting
 * or /proc; an executor whose figures are steady, the simulated one, is asked only what started and ended), writes
 * what changed in one statement for the whole rep process, and refreshes the per-instance gauges.
 * Runs on a thread of its own, so a slow database delays only the figures, never a cell's work. A failed write is
 * logged once per outage and folded into the next round.
 */
final class UsageReporter implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(UsageReporter.class);

    private final CellAgents agents;
    private final InstanceUsages store;
    private final UsageMeters meters;
    private final UsageProperties properties;
    private final Clock clock;
    private final ScheduledThreadPoolExecutor thread;
    private UsageRounds rounds;
    private ScheduledFuture<?> ticking;
    private boolean failing;

    UsageReporter(CellAgents agents, InstanceUsages store, UsageMeters meters, UsageProperties properties,
            Clock clock) {
        this.agents = agents;
        this.store = store;
        this.meters = meters;
        this.properties = properties;
        this.clock = clock;
        this.thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "rep-usage");
            t.setDaemon(true);
            return t;
        });
        thread.setRemoveOnCancelPolicy(true);
    }

    @Override
    public synchronized void start() {
        if (ticking == null) {
            // only the cells this process holds: another rep's usage rows are not this one's to sweep
            rounds = new UsageRounds(() -> held().stream().map(CellAgent::cellId).toList(), properties.fullInterval());
            long ms = properties.interval().toMillis();
            ticking = thread.scheduleWithFixedDelay(this::round, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public synchronized void stop() {
        if (ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return ticking != null;
    }

    /** For good: the reporter's thread goes. */
    void close() {
        stop();
        thread.shutdownNow();
    }

    /** One round: measure, write what changed (one statement), update the gauges. */
    void round() {
        long started = System.nanoTime();
        try {
            Instant now = clock.instant();
            UsageSample sample = measure(rounds.fullDue(now));
            meters.update(sample);
            UsageRound round = rounds.next(sample, now);
            if (!round.isEmpty()) {
                store.write(round);
                meters.wrote();
            }
            rounds.written(round, now);
            if (failing) {
                log.info("usage-write-recovered instances={}", sample.instances());
            }
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("usage-write-failed error=\"{}\" (figures are kept and written with the next round)",
                        e.getMessage());
            }
            failing = true;
        } finally {
            meters.round(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    private List<CellAgent> held() {
        return agents.all().stream().filter(CellAgent::holdsItsCell).toList();
    }

    private UsageSample measure(boolean full) {
        Map<String, Executor> executors = new LinkedHashMap<>();
        held().forEach(agent -> executors.put(agent.cellId(), agent.executor()));
        return sample(executors, full);
    }

    /**
     * Measures the executors of the cells this process holds; a steady executor's changes are taken first and its every
     * container only in a full round, so one that starts in between is in both (written twice, harmlessly), never in
     * neither.
     */
    static UsageSample sample(Map<String, Executor> executorsByCell, boolean full) {
        List<InstanceUsage> measured = new ArrayList<>();
        List<InstanceUsage> started = new ArrayList<>();
        Set<String> ended = new HashSet<>();
        List<InstanceUsage> steadyAll = new ArrayList<>();
        long steadyRunning = 0;
        for (Map.Entry<String, Executor> cell : executorsByCell.entrySet()) {
            String cellId = cell.getKey();
            Executor executor = cell.getValue();
            if (!executor.steadyUsage()) {
                executor.usage().forEach(u -> measured.add(of(cellId, u)));
                continue;
            }
            UsageChanges changes = executor.usageChanges();
            changes.started().forEach(u -> started.add(of(cellId, u)));
            ended.addAll(changes.ended());
            steadyRunning += changes.running();
            if (full) {
                executor.usage().forEach(u -> steadyAll.add(of(cellId, u)));
            }
        }
        return new UsageSample(measured, started, ended, steadyAll, steadyRunning);
    }

    private static InstanceUsage of(String cellId, ContainerUsage u) {
        return new InstanceUsage(u.key().processGuid(), u.key().index(), u.instanceGuid(), cellId,
                u.cpuPercent(), u.memoryBytes(), u.memoryLimitBytes(), u.diskBytes(), u.startedAt());
    }
}
