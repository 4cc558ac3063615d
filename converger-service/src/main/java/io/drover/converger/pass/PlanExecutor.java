package io.drover.converger.pass;

import io.drover.converger.plan.Plan;
import io.drover.converger.plan.Rule;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.planted.PlantedBug;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a plan through {@link ActualLrpLifecycle}, the only write path, in batches of one transaction each. An
 * action that meets a conflict, an illegal transition or a record that is gone is skipped and counted: the world moved
 * since the snapshot, and the next pass re-reads it. Losing the leader lock ends the whole plan at once.
 */
class PlanExecutor {

    private static final Logger log = LoggerFactory.getLogger(PlanExecutor.class);
    private static final Actor CONVERGER = Actor.service("converger");

    private final ActualLrpLifecycle lifecycle;
    private final int batchSize;

    PlanExecutor(ActualLrpLifecycle lifecycle, int batchSize) {
        this.lifecycle = lifecycle;
        this.batchSize = batchSize;
    }

    Execution execute(Plan plan) {
        Execution execution = new Execution();
        if (!PlantedBug.MISSING_INDEX_REPAIR.planted()) {
            plan.missing().forEach(missing -> createMissing(missing, execution));
        }
        // each unclaim applies only to an instance still in the state the plan saw it in
        inBatches(Rule.LOST_CELL, plan, execution, (keys, reason, actor) -> lifecycle.unclaim(keys,
                EnumSet.of(ActualLrpState.CLAIMED, ActualLrpState.RUNNING), reason, actor));
        if (plan.gracedLostCell() == 0) {
            // while a new leader's grace spares lost cells' instances, it spares their twins too
            removeEvacuatingOfLostCells(execution);
        }
        retireOrphanTwins(execution);
        inBatches(Rule.STALE_UNCLAIMED, plan, execution, (keys, reason, actor) -> lifecycle.unclaim(keys,
                EnumSet.of(ActualLrpState.UNCLAIMED), reason, actor));
        inBatches(Rule.CRASH_RESTART, plan, execution, (keys, reason, actor) -> lifecycle.unclaim(keys,
                EnumSet.of(ActualLrpState.CRASHED), reason, actor));
        inBatches(Rule.EXTRA_INDEX, plan, execution, lifecycle::retire);
        inBatches(Rule.ORPHAN, plan, execution, lifecycle::retire);
        return execution;
    }

    /** Rule 2 for evacuating twins (SPEC 8.5): a twin whose draining cell is gone serves nothing any more. */
    private void removeEvacuatingOfLostCells(Execution execution) {
        try {
            count(Rule.LOST_CELL, lifecycle.removeEvacuatingOfLostCells(batchSize, Rule.LOST_CELL.reason(), CONVERGER),
                    execution);
        } catch (LeadershipLostException e) {
            throw e;
        } catch (RuntimeException e) {
            log.warn("convergence-action-failed rule={} evacuating=true cause={}", Rule.LOST_CELL.tag(), e.toString());
        }
    }

    /**
     * Rules 5 and 6 for twins (SPEC 8.5, 14): a twin whose slot has no record and is not desired any more (its stop lost
     * before twins carried a mark, say) is retired like a slot; nothing else would ever stop it.
     */
    private void retireOrphanTwins(Execution execution) {
        try {
            count(Rule.ORPHAN, lifecycle.retireOrphanTwins(batchSize, "no desired instance wants it", CONVERGER),
                    execution);
        } catch (LeadershipLostException e) {
            throw e;
        } catch (RuntimeException e) {
            log.warn("convergence-action-failed rule={} twins=true cause={}", Rule.ORPHAN.tag(), e.toString());
        }
    }

    /**
     * Rule 1: one transaction and one auction request per desired LRP; indices someone else created, and indices the
     * desired LRP no longer has (scaled down or deleted since the snapshot), are skipped.
     */
    private void createMissing(Plan.MissingIndices missing, Execution execution) {
        try {
            List<Integer> created = lifecycle.createMissing(missing.processGuid(), missing.domain(),
                    missing.indices(), Rule.MISSING_INDEX.reason(), CONVERGER);
            execution.applied(Rule.MISSING_INDEX, created.size());
            execution.skipped(Rule.MISSING_INDEX, missing.indices().size() - created.size());
        } catch (LeadershipLostException e) {
            throw e;
        } catch (RuntimeException e) {
            // a conflict that outlasted the lifecycle's retries, a lost connection: the next pass tries again
            log.warn("convergence-action-failed rule={} process_guid={} cause={}", Rule.MISSING_INDEX.tag(),
                    missing.processGuid(), e.toString());
            execution.skipped(Rule.MISSING_INDEX, missing.indices().size());
        }
    }

    private void inBatches(Rule rule, Plan plan, Execution execution, LifecycleBatch operation) {
        List<ActualLrpKey> keys = plan.keys(rule);
        for (int from = 0; from < keys.size(); from += batchSize) {
            List<ActualLrpKey> batch = keys.subList(from, Math.min(keys.size(), from + batchSize));
            try {
                count(rule, operation.apply(batch, rule.reason(), CONVERGER), execution);
            } catch (LeadershipLostException e) {
                throw e;
            } catch (RuntimeException e) {
                log.warn("convergence-action-failed rule={} instances={} cause={}", rule.tag(), batch.size(),
                        e.toString());
                execution.skipped(rule, batch.size());
            }
        }
    }

    private static void count(Rule rule, Map<ActualLrpKey, Outcome> outcomes, Execution execution) {
        outcomes.forEach((key, outcome) -> {
            if (outcome.succeeded()) {
                execution.applied(rule, 1);
            } else {
                log.debug("convergence-action-skipped rule={} process_guid={} index={} outcome={} message={}",
                        rule.tag(), key.processGuid(), key.index(), outcome.kind(), outcome.message());
                execution.skipped(rule, 1);
            }
        });
    }

    @FunctionalInterface
    private interface LifecycleBatch {
        Map<ActualLrpKey, Outcome> apply(Collection<ActualLrpKey> keys, String reason, Actor actor);
    }
}
