package io.drover.converger.pass;

import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.TaskConvergence;
import io.drover.converger.plan.TaskPlan;
import io.drover.converger.plan.TaskRule;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskState;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task half of a pass, top to bottom: plan with the pure task rules over the tasks of the pass's snapshot (read
 * with its cells, so a task is never judged against cells older than it), apply the plan through the (fenced) task
 * lifecycle in batches, count and log. A repair meeting a task that moved on is skipped; losing the leader lock ends
 * the pass.
 */
class TaskRepairs {

    private static final Logger log = LoggerFactory.getLogger(TaskRepairs.class);
    private static final Actor CONVERGER = Actor.service("converger");

    private final TaskConvergence convergence;
    private final TaskLifecycle lifecycle;
    private final MeterRegistry meters;
    private final int batchSize;

    TaskRepairs(TaskConvergence convergence, TaskLifecycle lifecycle, MeterRegistry meters, int batchSize) {
        this.convergence = convergence;
        this.lifecycle = lifecycle;
        this.meters = meters;
        this.batchSize = batchSize;
    }

    TaskPlan run(ConvergenceSnapshot snapshot) {
        long started = System.nanoTime();
        TaskPlan plan = convergence.plan(snapshot, snapshot.tasks());
        if (plan.isEmpty()) {
            return plan;
        }
        apply(TaskRule.PLACEMENT_RETRY, plan.retries(),
                batch -> lifecycle.retryPlacement(batch, TaskRule.PLACEMENT_RETRY.reason(), CONVERGER));
        apply(TaskRule.PENDING_TOO_LONG, plan.failPending(),
                batch -> lifecycle.fail(batch, EnumSet.of(TaskState.PENDING), CONVERGER));
        apply(TaskRule.LOST_CELL, plan.failRunning(),
                batch -> lifecycle.fail(batch, EnumSet.of(TaskState.RUNNING), CONVERGER));
        apply(TaskRule.STALE_RESOLVING, asMap(plan.revertResolving()), batch -> lifecycle.revertResolving(
                batch.keySet(), TaskRule.STALE_RESOLVING.reason(), CONVERGER));
        apply(TaskRule.EXPIRED, asMap(plan.expire()),
                batch -> lifecycle.expire(batch.keySet(), TaskRule.EXPIRED.reason(), CONVERGER));
        meters.counter("drover.convergence.task.retries.deferred").increment(plan.deferredRetries());
        log.info("task-convergence tasks={} retried={} failed_pending={} failed_lost_cell={} reverted_resolving={} "
                + "expired={} retries_deferred={} duration_ms={}", snapshot.tasks().size(), plan.retries().size(),
                plan.failPending().size(), plan.failRunning().size(), plan.revertResolving().size(),
                plan.expire().size(), plan.deferredRetries(), (System.nanoTime() - started) / 1_000_000);
        return plan;
    }

    private <T> void apply(TaskRule rule, Map<String, T> actions, Function<Map<String, T>, Map<String, Outcome>> op) {
        List<Map.Entry<String, T>> entries = new ArrayList<>(actions.entrySet());
        for (int from = 0; from < entries.size(); from += batchSize) {
            Map<String, T> batch = new LinkedHashMap<>();
            entries.subList(from, Math.min(entries.size(), from + batchSize)).forEach(e -> batch.put(e.getKey(),
                    e.getValue()));
            try {
                op.apply(batch).forEach((guid, outcome) -> count(rule, guid, outcome));
            } catch (LeadershipLostException e) {
                throw e;
            } catch (RuntimeException e) {
                log.warn("task-convergence-action-failed rule={} tasks={} cause={}", rule.tag(), batch.size(),
                        e.toString());
                meters.counter("drover.convergence.task.actions", "rule", rule.tag(), "outcome", "skipped")
                        .increment(batch.size());
            }
        }
    }

    private void count(TaskRule rule, String guid, Outcome outcome) {
        meters.counter("drover.convergence.task.actions", "rule", rule.tag(), "outcome",
                outcome.succeeded() ? "applied" : "skipped").increment();
        if (!outcome.succeeded()) {
            log.debug("task-convergence-action-skipped rule={} task_guid={} outcome={} message={}", rule.tag(), guid,
                    outcome.kind(), outcome.message());
        }
    }

    private static Map<String, String> asMap(List<String> guids) {
        Map<String, String> map = new LinkedHashMap<>();
        guids.forEach(g -> map.put(g, g));
        return map;
    }
}
