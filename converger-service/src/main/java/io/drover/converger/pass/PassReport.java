package io.drover.converger.pass;

import io.drover.converger.plan.Plan;
import io.drover.converger.plan.Rule;
import java.time.Duration;

/** What one pass saw, decided and did, and how long each step took. */
record PassReport(String trigger, int actuals, Plan plan, Execution execution, Duration read, Duration planning,
        Duration executing) {

    Duration total() {
        return read.plus(planning).plus(executing);
    }

    /** The structured log line of a pass: stable keys, one per rule. */
    String logLine() {
        StringBuilder line = new StringBuilder("convergence-pass trigger=").append(trigger)
                .append(" actuals=").append(actuals)
                .append(" actions=").append(execution.totalApplied())
                .append(" skipped=").append(execution.totalSkipped());
        for (Rule rule : Rule.values()) {
            line.append(' ').append(rule.tag()).append('=').append(plan.actions(rule));
        }
        return line.append(" lost_cell_deferred=").append(plan.deferredLostCell())
                .append(" lost_cell_graced=").append(plan.gracedLostCell())
                .append(" stale_unclaimed_deferred=").append(plan.deferredStaleUnclaimed())
                .append(" skipped_unfresh=").append(plan.skippedUnfresh())
                .append(" read_ms=").append(read.toMillis())
                .append(" plan_ms=").append(planning.toMillis())
                .append(" execute_ms=").append(executing.toMillis())
                .append(" duration_ms=").append(total().toMillis())
                .toString();
    }
}
