package io.drover.converger.pass;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Decides when a pass runs: every {@code interval}, soon after a cell is lost or a desired LRP changes, and at once on
 * election. Everything runs on one thread, so passes never overlap; requests that arrive before a scheduled pass
 * starts share it (the earliest wins). Only the leader runs passes; standbys keep the timers and do nothing.
 *
 * <p>At every {@code cellWatchInterval} the leader also keeps the planner statistics of the tables that take bursts up
 * with their size (see {@code PlannerStatistics}): one catalog query, and an {@code ANALYZE} when a table outgrew
 * what PostgreSQL believes.
 */
class ConvergenceLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ConvergenceLoop.class);

    private final ConvergencePass pass;
    private final CellLossWatcher cells;
    private final Runnable keepStatisticsUp;
    private final BooleanSupplier leader;
    private final Timings timings;
    private final Consumer<RuntimeException> watchFailed;
    private ScheduledExecutorService thread;
    private ScheduledFuture<?> pending;
    private long pendingDueNanos;

    /** When passes run; see {@code ConvergerProperties}. */
    record Timings(Duration interval, Duration cellWatchInterval, Duration debounce, Duration desiredChangeDelay) {
    }

    ConvergenceLoop(ConvergencePass pass, CellLossWatcher cells, Runnable keepStatisticsUp, BooleanSupplier leader,
            Timings timings, Consumer<RuntimeException> watchFailed) {
        this.pass = pass;
        this.watchFailed = watchFailed;
        this.cells = cells;
        this.keepStatisticsUp = keepStatisticsUp;
        this.leader = leader;
        this.timings = timings;
    }

    /** This instance just became the leader: converge now rather than at the next tick. */
    void elected() {
        requestPass("elected", Duration.ZERO);
    }

    /** A desired LRP changed or was removed, or an instance was removed: converge after the changes of a short pause. */
    void desiredLrpChanged() {
        requestPass("desired-lrp-changed", timings.desiredChangeDelay());
    }

    private void watch() {
        if (!leader.getAsBoolean()) {
            return;
        }
        if (cells.cellsLostSinceLastLook()) {
            requestPass("cell-lost", timings.debounce());
        }
        keepStatisticsUp.run();
    }

    private void runPass(String trigger) {
        synchronized (this) {
            pending = null;
        }
        if (!leader.getAsBoolean()) {
            return;
        }
        try {
            PassReport report = pass.run(trigger);
            // the per-pass caps bound a herd of auctions; they must not also stretch recovery over many intervals
            if (report.plan().deferredLostCell() > 0) {
                requestPass("lost-cell-deferred", timings.debounce());
            } else if (report.plan().deferredStaleUnclaimed() > 0) {
                requestPass("stale-unclaimed-deferred", timings.debounce());
            }
        } catch (RuntimeException e) {
            pass.failed(trigger, e);
        }
    }

    synchronized void requestPass(String trigger, Duration delay) {
        if (thread == null) {
            return;
        }
        long due = System.nanoTime() + delay.toNanos();
        if (pending != null && pendingDueNanos <= due) {
            return;
        }
        if (pending != null) {
            pending.cancel(false);
        }
        pendingDueNanos = due;
        pending = thread.schedule(() -> runPass(trigger), delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "convergence-loop");
            t.setDaemon(true);
            return t;
        });
        long interval = timings.interval().toMillis();
        long watch = timings.cellWatchInterval().toMillis();
        thread.scheduleWithFixedDelay(() -> requestPass("interval", Duration.ZERO), interval, interval,
                TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(this::safely, watch, watch, TimeUnit.MILLISECONDS);
        // the election may have been won before this loop started; this pass covers it (a standby skips it)
        requestPass("started", Duration.ZERO);
        log.info("convergence-loop-started interval_ms={} cell_watch_ms={}", interval, watch);
    }

    private void safely() {
        try {
            watch();
        } catch (RuntimeException e) {
            log.warn("cell-watch-failed cause={}", e.toString());
            watchFailed.accept(e);
        }
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
            pending = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
