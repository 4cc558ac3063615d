package io.drover.converger.pass;

import io.drover.converger.plan.Convergence;
import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.Plan;
import io.drover.model.leader.LeadershipLostException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass, top to bottom: read a consistent snapshot, plan with the pure rules, apply the plan, record it; then the
 * same for tasks ({@link TaskRepairs}), against the snapshot's live cells. Tells this leader's grace
 * ({@link GraceOnElection}) what it judged, or that it could not reach the database.
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
    private final GraceOnElection grace;

    ConvergencePass(SnapshotReader snapshots, Convergence convergence, PlanExecutor executor,
            ConvergenceMetrics metrics, PassHook hook, TaskRepairs tasks, PassLedger ledger, GraceOnElection grace) {
        this.tasks = tasks;
        this.grace = grace;
        this.ledger = ledger;
        this.snapshots = snapshots;
        this.convergence = convergence;
        this.executor = executor;
        this.metrics = metrics;
        this.hook = hook;
    }

    PassReport run(String trigger) {
        long started = System.nanoTime();
        ConvergenceSnapshot snapshot = snapshots.read();
        long read = System.nanoTime();
        Plan plan = convergence.plan(snapshot);
        long planned = System.nanoTime();
        hook.beforeApplying(plan);
        Execution execution = executor.execute(plan);
        tasks.run(snapshot);
        long executed = System.nanoTime();
        PassReport report = new PassReport(trigger, snapshot.actualsHeld(), plan, execution,
                Duration.ofNanos(read - started), Duration.ofNanos(planned - read), Duration.ofNanos(executed - planned));
        metrics.record(report);
        ledger.record(report);
        grace.judged(snapshot.now());
        if (plan.isEmpty()) {
            log.debug(report.logLine());
        } else {
            log.info(report.logLine());
        }
        return report;
    }

    void failed(String trigger, RuntimeException e) {
        metrics.failed();
        grace.failed(e);
        if (e instanceof LeadershipLostException) {
            log.info("convergence-pass-abandoned trigger={} cause={}", trigger, e.getMessage());
            return;
        }
        log.warn("convergence-pass-failed trigger={} cause={}", trigger, e.toString(), e);
    }
}
