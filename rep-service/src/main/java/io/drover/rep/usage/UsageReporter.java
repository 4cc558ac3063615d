package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.drover.model.usage.UsageRound;
import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.executor.ContainerUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Every {@code interval}, measures every container of every cell of this rep (their executors read cgroup accounting
 * or /proc), writes what changed in one statement for the whole rep process, and refreshes the per-instance gauges.
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
            List<InstanceUsage> current = measure();
            meters.update(current);
            UsageRound round = rounds.next(current, now);
            if (!round.isEmpty()) {
                store.write(round);
                meters.wrote();
            }
            rounds.written(round, now);
            if (failing) {
                log.info("usage-write-recovered instances={}", current.size());
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

    private List<InstanceUsage> measure() {
        List<InstanceUsage> usage = new ArrayList<>();
        for (CellAgent agent : held()) {
            for (ContainerUsage u : agent.executor().usage()) {
                usage.add(new InstanceUsage(u.key().processGuid(), u.key().index(), u.instanceGuid(), agent.cellId(),
                        u.cpuPercent(), u.memoryBytes(), u.memoryLimitBytes(), u.diskBytes(), u.startedAt()));
            }
        }
        return usage;
    }
}
