package io.drover.model.task;

import io.drover.model.lrp.Actor;
import io.drover.model.lrp.OptimisticRetry;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.Outbox;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to {@code tasks}. Each operation is one short transaction, the same loop as the actual LRP
 * lifecycle: load the tasks in one query, apply the {@link Task} verb to each, write them with one versioned statement
 * per kind of write, and write the audit rows (which are also the {@code task_created|changed|removed} events) and the
 * commands they cause (start requests, {@code TasksPlaced}, {@code TaskCancelRequested}). A lost optimistic-lock race
 * is retried from outside the transaction with a fresh read. Batch forms return an {@link Outcome} per task guid; an
 * illegal transition of one task does not stop the others.
 */
public class TaskLifecycle {

    private final TransactionTemplate tx;
    private final TaskOperations ops;
    private final TaskRecorder recorder;
    private final OptimisticRetry retry;
    private final Runnable guard;
    private final TaskStore store;

    TaskLifecycle(TransactionTemplate tx, TaskOperations ops, TaskRecorder recorder, OptimisticRetry retry,
            Runnable guard, TaskStore store) {
        this.tx = tx;
        this.ops = ops;
        this.recorder = recorder;
        this.retry = retry;
        this.guard = guard;
        this.store = store;
    }

    /**
     * The task lifecycle over this database and outbox; lost races are retried up to {@code attempts} times, and a
     * deleted task's guid stays known for {@code tombstoneTtl}.
     */
    public static TaskLifecycle create(TransactionTemplate tx, JdbcTemplate jdbc, Outbox outbox, Clock clock,
            Supplier<UUID> ids, int attempts, Duration tombstoneTtl) {
        TaskStore store = new TaskStore(jdbc);
        return new TaskLifecycle(tx, new TaskOperations(store, clock, ids, tombstoneTtl), new TaskRecorder(store,
                jdbc, outbox, clock, ids), new OptimisticRetry(attempts), () -> {
                }, store);
    }

    /**
     * This lifecycle with every transaction running {@code guard} at its end, inside it, before it commits; a guard that
     * throws rolls the operation back, unretried (a single-active service fences its writes with its leader lock this
     * way). Last, not first: its share lock takes the transaction's id, which must come after the transaction's reads
     * (docs/architecture.md, "Keeping per-instance order in the event stream").
     */
    public TaskLifecycle guardedBy(Runnable guard) {
        return new TaskLifecycle(tx, ops, recorder, retry, guard, store);
    }

    /**
     * Submits a task: a new one is PENDING with an auction requested. The same guid with an identical definition gives
     * back the existing task ({@code created} false); a different definition throws {@link TaskGuidAlreadyExistsException}.
     * A guid whose task was deleted within the tombstone window is never submitted again: an identical definition gets
     * the {@link TaskTombstone} back, a different one throws.
     */
    public TaskSubmission submit(TaskDefinition definition, Actor actor) {
        return submit(definition, actor, TaskAdmission.ANY);
    }

    /**
     * Submits a task as {@link #submit(TaskDefinition, Actor)} does, asking {@code admission} first when it would
     * create one (in the submission's transaction, so what it reads is as of that transaction's statements).
     */
    public TaskSubmission submit(TaskDefinition definition, Actor actor, TaskAdmission admission) {
        Submitted answer = submitAll(List.of(definition), actor, admission).get(0);
        if (answer.refusal() != null) {
            throw answer.refusal();
        }
        return answer.submission();
    }

    /**
     * Many submissions in one transaction (a receptor's group commit of its concurrent requests), each decided as it
     * would be alone: the answers, in order, each a submission or the refusal its own call would have thrown (a
     * different body under a known guid, a domain at its limit). A failure of the transaction itself (the database)
     * throws for all of them.
     */
    public List<Submitted> submitAll(List<TaskDefinition> definitions, Actor actor, TaskAdmission admission) {
        return run(actor, changes -> ops.submit(definitions, actor, admission, changes));
    }

    /** One answer of {@link #submitAll}: what the submission came to, or the refusal its own call would throw. */
    public record Submitted(TaskSubmission submission, RuntimeException refusal) {
    }

    /** The auctioneer's result: each task stays PENDING with its placement; each cell gets one {@code TasksPlaced}. */
    public Map<String, Outcome> place(UUID auctionId, Map<String, String> cellByGuid, Actor actor) {
        return run(actor, changes -> ops.place(auctionId, cellByGuid, changes));
    }

    /** No cell could take these tasks: they stay PENDING with the reason, for the converger to auction again. */
    public Map<String, Outcome> failPlacement(Map<String, String> errorByGuid, Actor actor) {
        return run(actor, changes -> ops.failPlacement(errorByGuid, null, actor, changes));
    }

    /** A cell turns placements away: each fails only while it is still placed on {@code cellId}. */
    public Map<String, Outcome> rejectPlacement(String cellId, Map<String, String> errorByGuid, Actor actor) {
        return run(actor, changes -> ops.failPlacement(errorByGuid, cellId, Actor.cell(cellId), changes));
    }

    /** Another auction for tasks whose last one came to nothing, if they are still as last seen; counts an attempt. */
    public Map<String, Outcome> retryPlacement(Map<String, Instant> lastTouchedByGuid, String reason, Actor actor) {
        return run(actor, changes -> ops.retryPlacement(lastTouchedByGuid, reason, changes));
    }

    /** Cells start the tasks placed on them (PENDING → RUNNING); only a CHANGED outcome may run the task's action. */
    public Map<String, Outcome> start(Map<String, TaskStart> starts, Actor actor) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        startToRun(starts, actor).forEach((guid, started) -> outcomes.put(guid, started.outcome()));
        return outcomes;
    }

    /**
     * {@link #start}, each outcome with the task's definition as the start found it: a cell runs what its start made
     * without reading the task (the start read it already).
     */
    public Map<String, TaskStarted> startToRun(Map<String, TaskStart> starts, Actor actor) {
        return run(actor, changes -> ops.start(starts, actor, changes));
    }

    /** Cells report how their tasks ended (RUNNING → COMPLETED); the first completion wins. */
    public Map<String, Outcome> complete(Map<String, TaskCompletion> completions, Actor actor) {
        return run(actor, changes -> ops.complete(completions, changes));
    }

    /**
     * Cancels a PENDING or RUNNING task (COMPLETED, failed, "cancelled"); its cell is asked to stop a running one.
     * Cancelling it again is a no-op; throws {@link TaskNotFoundException} or {@link IllegalTaskTransitionException}.
     */
    public void cancel(String guid, Actor actor) {
        throwIfFailed(guid, run(actor, changes -> ops.cancel(guid, changes)));
    }

    /** Repairs: fails the tasks still in one of {@code expected}, each with its reason. */
    public Map<String, Outcome> fail(Map<String, String> reasonByGuid, Set<TaskState> expected, Actor actor) {
        return run(actor, changes -> ops.fail(reasonByGuid, expected, changes));
    }

    /** COMPLETED → RESOLVING: the caller now owns handing the completion on; REJECTED when someone else does. */
    public Map<String, Outcome> resolving(Collection<String> guids, Actor actor) {
        return run(actor, changes -> ops.resolving(List.copyOf(guids), changes));
    }

    /** RESOLVING → COMPLETED: the resolver gave up or vanished; the task waits for a client (or its expiry). */
    public Map<String, Outcome> revertResolving(Collection<String> guids, String reason, Actor actor) {
        return run(actor, changes -> ops.revertResolving(List.copyOf(guids), reason, changes));
    }

    /**
     * The callback worker's answers, for tasks it holds (RESOLVING): a delivered callback resolves (deletes) its task;
     * one to be tried again, or given up, hands the task back (COMPLETED) with its callback state updated. REJECTED when
     * the worker no longer holds the task (it was handed back meanwhile).
     */
    public Map<String, Outcome> callbackAnswered(Map<String, CallbackAnswer> answers, Actor actor) {
        return run(actor, changes -> ops.callbackAnswered(answers, changes));
    }

    /** Completed tasks nobody resolved in time are deleted (the converger's expiry), never while a callback is due. */
    public Map<String, Outcome> expire(Collection<String> guids, String reason, Actor actor) {
        return run(actor, changes -> ops.expire(List.copyOf(guids), reason, changes));
    }

    /**
     * A client resolves a completed task (DELETE): COMPLETED → RESOLVING → deleted in one transaction. Throws
     * {@link TaskNotFoundException}, or {@link IllegalTaskTransitionException} unless it is COMPLETED.
     */
    public void delete(String guid, Actor actor) {
        throwIfFailed(guid, run(actor, changes -> ops.resolveAndDelete(guid, "resolved by client", changes)));
    }

    /**
     * Garbage collection: forgets up to {@code limit} tombstones of tasks deleted before {@code before}, in one short
     * statement, under the guard; returns how many.
     */
    public int pruneTombstones(Instant before, int limit) {
        return tx.execute(status -> {
            int pruned = store.pruneTombstones(before, limit);
            guard.run();
            return pruned;
        });
    }

    private <T> T run(Actor actor, Function<TaskChanges, T> work) {
        return retry.run("task", () -> tx.execute(status -> {
            TaskChanges changes = new TaskChanges();
            T result = work.apply(changes);
            recorder.write(changes, actor);
            guard.run(); // last, before the commit: its row lock takes the transaction's id (see guardedBy)
            return result;
        }));
    }

    private static void throwIfFailed(String guid, Outcome outcome) {
        switch (outcome.kind()) {
            case NOT_FOUND -> throw new TaskNotFoundException(guid);
            case REJECTED -> throw new IllegalTaskTransitionException(guid, outcome.message());
            default -> {
            }
        }
    }
}
