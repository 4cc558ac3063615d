package io.drover.converger.pass;

import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Decides when a pass runs and what it reads: every {@code interval}, soon after a cell is lost, and at once on
 * election, a full pass; soon after LRPs change, a pass over those LRPs only (SPEC 6 asks for a pass at once when a
 * desired LRP changes; under a burst of desires a full pass every few seconds would read every instance each time).
 * Everything runs on one thread, so passes never overlap; requests that arrive before a scheduled pass starts share it
 * (the earliest time wins, and a full request makes it full). Only the leader runs passes; standbys keep the timers
 * and do nothing.
 */
class ConvergenceLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ConvergenceLoop.class);

    private final ConvergencePass pass;
    private final CellLossWatcher cells;
    private final BooleanSupplier leader;
    private final Timings timings;
    private ScheduledExecutorService thread;
    /** Above this many changed LRPs a full pass is cheaper than one over them. */
    static final int MAX_CHANGED_LRPS = 5_000;
    private static final String DESIRED_LRP_CHANGED = "desired-lrp-changed";
    private static final String STALE_UNCLAIMED_DEFERRED = "stale-unclaimed-deferred";

    private ScheduledFuture<?> pending;
    private long pendingDueNanos;
    private String pendingTrigger;
    private boolean fullPending;
    private Set<String> changed = new HashSet<>();

    /** When passes run; see {@code ConvergerProperties}. */
    record Timings(Duration interval, Duration cellWatchInterval, Duration debounce, Duration desiredChangeDelay) {
    }

    ConvergenceLoop(ConvergencePass pass, CellLossWatcher cells, BooleanSupplier leader, Timings timings) {
        this.pass = pass;
        this.cells = cells;
        this.leader = leader;
        this.timings = timings;
    }

    /** This instance just became the leader: converge now rather than at the next tick. */
    void elected() {
        requestPass("elected", Duration.ZERO);
    }

    /** An LRP changed somewhere and which one is not known: a full pass after the changes of a short pause. */
    void desiredLrpChanged() {
        requestPass(DESIRED_LRP_CHANGED, timings.desiredChangeDelay());
    }

    /**
     * These LRPs changed (desired, scaled or removed, or an instance of theirs was removed): after the changes of a
     * short pause, a pass over them and every other LRP that changed meanwhile; a full pass instead when one is due
     * anyway or when more than {@link #MAX_CHANGED_LRPS} changed.
     */
    void lrpsChanged(Collection<String> processGuids) {
        requestPassOver(DESIRED_LRP_CHANGED, processGuids, timings.desiredChangeDelay());
    }

    /** A pass over these LRPs (and any others that changed meanwhile), after {@code delay} or sooner. */
    private synchronized void requestPassOver(String trigger, Collection<String> processGuids, Duration delay) {
        changed.addAll(processGuids);
        schedule(trigger, delay, false);
    }

    private void watchCells() {
        if (leader.getAsBoolean() && cells.cellsLostSinceLastLook()) {
            requestPass("cell-lost", timings.debounce());
        }
    }

    private void runPass() {
        String trigger;
        boolean full;
        Set<String> lrps;
        synchronized (this) {
            // what changed from here on waits for the next pass: this one's snapshot is read after
            trigger = pendingTrigger;
            full = fullPending || changed.size() > MAX_CHANGED_LRPS;
            lrps = changed;
            pending = null;
            pendingTrigger = null;
            fullPending = false;
            changed = new HashSet<>();
        }
        if (!leader.getAsBoolean()) {
            return;
        }
        try {
            PassReport report = full ? pass.run(trigger) : pass.runFor(trigger, lrps);
            // the per-pass caps bound a herd of auctions; they must not also stretch recovery over many intervals
            if (report.plan().deferredLostCell() > 0) {
                requestPass("lost-cell-deferred", timings.debounce());
            } else if (report.plan().deferredStaleUnclaimed() > 0) {
                // the follow-up reads only the LRPs it has instances to re-auction of (a backlog under a burst
                // asked for a full pass of every instance each time, 500 re-auctions a pass)
                Set<String> deferred = report.plan().deferredStaleLrps();
                if (deferred.isEmpty()) {
                    requestPass(STALE_UNCLAIMED_DEFERRED, timings.debounce());
                } else {
                    requestPassOver(STALE_UNCLAIMED_DEFERRED, deferred, timings.debounce());
                }
            }
        } catch (RuntimeException e) {
            pass.failed(trigger, e);
        }
    }

    /** A full pass, after {@code delay} or sooner if one is already due sooner. */
    synchronized void requestPass(String trigger, Duration delay) {
        schedule(trigger, delay, true);
    }

    private void schedule(String trigger, Duration delay, boolean full) {
        if (thread == null) {
            return;
        }
        boolean upgrade = full && !fullPending;
        fullPending |= full;
        long due = System.nanoTime() + delay.toNanos();
        if (pending != null && pendingDueNanos <= due) {
            if (upgrade) {
                pendingTrigger = trigger; // the pass already due becomes a full one, and says why
            }
            return;
        }
        if (pending != null) {
            pending.cancel(false);
        }
        if (full || !fullPending) {
            pendingTrigger = trigger;
        }
        pendingDueNanos = due;
        pending = thread.schedule(this::runPass, delay.toNanos(), TimeUnit.NANOSECONDS);
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
            watchCells();
        } catch (RuntimeException e) {
            log.warn("cell-watch-failed cause={}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
            pending = null;
            pendingTrigger = null;
            fullPending = false;
            changed = new HashSet<>();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
