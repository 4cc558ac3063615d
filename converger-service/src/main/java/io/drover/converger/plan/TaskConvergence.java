package io.drover.converger.plan;

import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.time.Instants;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Set;

/**
 * The task rules of SPEC 13 as one pure function, one method per rule: {@link #plan} looks at every task once and
 * says what to repair. The rules only ever move a task forward (another auction, a failure, back from a resolver that
 * vanished, deletion); each repair applies to a task still as the plan saw it.
 */
public class TaskConvergence {

    private final Settings settings;

    /**
     * @param staleAfter a PENDING task untouched (no change, no placement) for longer is auctioned again
     * @param placementRetries at most this many re-auctions per task, then it fails with its placement error
     * @param maxRetriesPerPass at most this many re-auctions per pass
     * @param pendingTimeout a task PENDING for longer since its submission fails
     * @param resolvingTimeout a task RESOLVING for longer goes back to COMPLETED
     * @param completedTtl a task completed (and its callback given up) longer ago and not resolved is deleted
     */
    public record Settings(Duration staleAfter, int placementRetries, int maxRetriesPerPass, Duration pendingTimeout,
            Duration resolvingTimeout, Duration completedTtl) {
    }

    public TaskConvergence(Settings settings) {
        this.settings = settings;
    }

    /** Plans the repairs of {@code tasks} against the pass's snapshot (its time, its cells, its election grace). */
    public TaskPlan plan(ConvergenceSnapshot snapshot, Collection<TaskSummary> tasks) {
        TaskPlan.Builder plan = TaskPlan.builder();
        Instant now = snapshot.now();
        for (TaskSummary task : tasks) {
            switch (task.state()) {
                case PENDING -> pending(task, now, snapshot.liveCells(), plan);
                case RUNNING -> lostCell(task, snapshot, plan);
                case RESOLVING -> staleResolving(task, now, plan);
                case COMPLETED -> expired(task, now, plan);
            }
        }
        return plan.build();
    }

    /** Rules 1 and 4: a task pending too long fails; one not started in time is auctioned again, a few times. */
    private void pending(TaskSummary task, Instant now, Set<String> liveCells, TaskPlan.Builder plan) {
        if (olderThan(task.createdAt(), settings.pendingTimeout(), now)) {
            plan.failPending(task.taskGuid(), TaskRule.PENDING_TOO_LONG.reason());
            return;
        }
        boolean placedOnLostCell = task.placedCellId() != null && !liveCells.contains(task.placedCellId());
        if (!placedOnLostCell && !olderThan(task.lastTouched(), settings.staleAfter(), now)) {
            return;
        }
        if (task.placementAttempts() >= settings.placementRetries()) {
            plan.failPending(task.taskGuid(), task.placementError() != null ? task.placementError()
                    : TaskRule.PLACEMENT_GIVEN_UP.reason());
        } else if (plan.retryCount() < settings.maxRetriesPerPass()) {
            plan.retry(task.taskGuid(), task.lastTouched());
        } else {
            plan.deferRetry();
        }
    }

    /**
     * Rule 2: RUNNING on a cell whose presence expired fails, "cell disappeared before completion"; not while a new
     * leader's grace spares that cell ({@link ElectionGrace}).
     */
    private static void lostCell(TaskSummary task, ConvergenceSnapshot snapshot, TaskPlan.Builder plan) {
        if (snapshot.isLost(task.cellId())) {
            plan.failRunning(task.taskGuid(), TaskRule.LOST_CELL.reason());
        }
    }

    /** Rule 3: RESOLVING for too long goes back to COMPLETED, for a client (or its expiry). */
    private void staleResolving(TaskSummary task, Instant now, TaskPlan.Builder plan) {
        if (olderThan(task.updatedAt(), settings.resolvingTimeout(), now)) {
            plan.revertResolving(task.taskGuid());
        }
    }

    /**
     * Rule 5: COMPLETED and not resolved long after it first completed (or after its callback's last attempt) is
     * deleted; never while its completion callback is still due, however long that takes.
     */
    private void expired(TaskSummary task, Instant now, TaskPlan.Builder plan) {
        if (task.callbackPending()) {
            return;
        }
        Instant settled = Instants.later(task.firstCompletedAt(), task.callbackLastAt());
        if (settled != null && olderThan(settled, settings.completedTtl(), now)) {
            plan.expire(task.taskGuid());
        }
    }

    private static boolean olderThan(Instant at, Duration limit, Instant now) {
        return at != null && Duration.between(at, now).compareTo(limit) > 0;
    }
}
