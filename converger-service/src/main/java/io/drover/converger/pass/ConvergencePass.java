package io.drover.converger.pass;

import io.drover.converger.plan.Convergence;
import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.Plan;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass, top to bottom: read a consistent snapshot, plan with the pure rules, apply the plan, record it; then the
 * same for tasks ({@link TaskRepairs}), against the snapshot's live cells. A full pass reads everything; a pass over
 * the LRPs that changed reads only theirs.
 */
class ConvergencePass {

    private static final Logger log = LoggerFactory.getLogger(ConvergencePass.class);

    private final SnapshotReader snapshots;
    private final Convergence convergence;
    private final PlanExecutor executor;
    private final ConvergenceMetrics metrics;
    private final PassHook hook;
    private final TaskRepairs tasks;
    private final PassLedger ledger;

    ConvergencePass(SnapshotReader snapshots, Convergence convergence, PlanExecutor executor,
            ConvergenceMetrics metrics, PassHook hook, TaskRepairs tasks, PassLedger ledger) {
        this.tasks = tasks;
        this.ledger = ledger;
        this.snapshots = snapshots;
        this.convergence = convergence;
        this.executor = executor;
        this.metrics = metrics;
        this.hook = hook;
    }

    /** A full pass: every LRP, then the tasks. */
    PassReport run(String trigger) {
        return run(trigger, snapshots::read, true);
    }

    /**
     * A pass over these LRPs only (they changed: desired, scaled, removed, or an instance of theirs was removed): the
     * same rules on a snapshot of their rows, so a burst of desires costs a pass over what it touched instead of one
     * over every instance. Tasks wait for the next full pass.
     */
    PassReport runFor(String trigger, Set<String> processGuids) {
        return run(trigger, () -> snapshots.read(processGuids), false);
    }

    private PassReport run(String trigger, Supplier<ConvergenceSnapshot> read, boolean full) {
        long started = System.nanoTime();
        ConvergenceSnapshot snapshot = read.get();
        long readAt = System.nanoTime();
        Plan plan = convergence.plan(snapshot);
        long planned = System.nanoTime();
        hook.beforeApplying(plan);
        Execution execution = executor.execute(plan);
        if (full) {
            tasks.run(snapshot.now(), snapshot.liveCells());
        }
        long executed = System.nanoTime();
        PassReport report = new PassReport(trigger, full, snapshot.actuals().size(), plan, execution,
                Duration.ofNanos(readAt - started), Duration.ofNanos(planned - readAt),
                Duration.ofNanos(executed - planned));
        metrics.record(report);
        ledger.record(report);
        if (plan.isEmpty()) {
            log.debug(report.logLine());
        } else {
            log.info(report.logLine());
        }
        return report;
    }

    void failed(String trigger, RuntimeException e) {
        metrics.failed();
        if (e instanceof LeadershipLostException) {
            log.info("convergence-pass-abandoned trigger={} cause={}", trigger, e.getMessage());
            return;
        }
        log.warn("convergence-pass-failed trigger={} cause={}", trigger, e.toString(), e);
    }
}
