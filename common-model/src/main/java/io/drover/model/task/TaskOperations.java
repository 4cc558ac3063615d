package io.drover.model.task;

import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.TaskCancelRequested;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.messaging.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The task operations as they run inside one transaction, each the same loop as the actual LRP lifecycle's: load the
 * tasks, apply the {@link Task} verb to each, note the change and the commands it causes. The verbs hold every rule;
 * this class only knows which verb an operation is and what it announces. {@link TaskLifecycle} wraps these in
 * transactions and retries; nothing else calls them.
 */
final class TaskOperations {

    private final TaskStore store;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final Duration tombstoneTtl;

    TaskOperations(TaskStore store, Clock clock, Supplier<UUID> ids, Duration tombstoneTtl) {
        this.store = store;
        this.clock = clock;
        this.ids = ids;
        this.tombstoneTtl = tombstoneTtl;
    }

    /**
     * A new task, PENDING with an auction requested; an identical one is returned as it is; a different one throws. A
     * guid whose task was deleted within the tombstone window is not submitted again: an identical body gets the
     * tombstone back, a different one throws.
     */
    /**
     * Many submissions in one transaction (a receptor's group commit): one query reads every guid's task or tombstone,
     * each submission is decided as it would be alone (a guid submitted twice in the batch is, the second time, the
     * resubmission of the first), the new tasks are written together and one start request per domain asks for their
     * auction. A refusal (a different body under a known guid, a domain at its limit) is that submission's answer, not
     * the batch's.
     */
    List<TaskLifecycle.Submitted> submit(List<TaskDefinition> definitions, Actor actor, TaskAdmission admission,
            TaskChanges changes) {
        Map<String, TaskStore.Found> found = store.loadForSubmit(definitions.stream().map(TaskDefinition::taskGuid)
                .toList());
        Map<String, Task> created = new LinkedHashMap<>();
        List<TaskLifecycle.Submitted> answers = new ArrayList<>(definitions.size());
        for (TaskDefinition definition : definitions) {
            try {
                answers.add(new TaskLifecycle.Submitted(submitOne(definition, found.get(definition.taskGuid()),
                        created.get(definition.taskGuid()), admission, actor, changes, created), null));
            } catch (TaskGuidAlreadyExistsException e) {
                answers.add(new TaskLifecycle.Submitted(null, e));
            } catch (Refused e) {
                answers.add(new TaskLifecycle.Submitted(null, e.refusal));
            }
        }
        Map<String, List<Task>> byDomain = new LinkedHashMap<>();
        created.values().forEach(t -> byDomain.computeIfAbsent(t.definition().domain(), d -> new ArrayList<>()).add(t));
        byDomain.values().forEach(tasks -> requestAuction(tasks, "submitted", changes));
        return answers;
    }

    private TaskSubmission submitOne(TaskDefinition definition, TaskStore.Found found, Task createdInBatch,
            TaskAdmission admission, Actor actor, TaskChanges changes, Map<String, Task> created) {
        Task existing = createdInBatch != null ? createdInBatch : found == null ? null : found.task();
        if (existing != null) {
            if (!existing.definition().equals(definition)) {
                throw new TaskGuidAlreadyExistsException(definition.taskGuid());
            }
            return new TaskSubmission(existing.snapshot(), false);
        }
        TaskTombstone tombstone = found == null ? null : found.tombstone();
        if (tombstone != null && tombstone.deletedAt().isAfter(now().minus(tombstoneTtl))) {
            if (!tombstone.digest().equals(definition.digest())) {
                throw new TaskGuidAlreadyExistsException(tombstone);
            }
            return TaskSubmission.deleted(tombstone);
        }
        try {
            admission.admit(definition.domain());
        } catch (RuntimeException refusal) {
            throw new Refused(refusal);
        }
        Task task = Task.pending(definition, ids.get(), now());
        changes.created(task, "submitted", actor);
        created.put(task.guid(), task);
        return new TaskSubmission(task.snapshot(), true);
    }

    /** The admission refused one submission of a batch: its answer, not the batch's. */
    private static final class Refused extends RuntimeException {

        private final RuntimeException refusal;

        Refused(RuntimeException refusal) {
            super(null, null, false, false);
            this.refusal = refusal;
        }
    }

    /** Remembers each placement on its task and sends each cell one {@code TasksPlaced} naming its tasks. */
    Map<String, Outcome> place(UUID auctionId, Map<String, String> cellByGuid, TaskChanges changes) {
        Map<String, List<Task>> byCell = new TreeMap<>();
        Instant now = now();
        Map<String, Outcome> outcomes = each(cellByGuid, (task, cell) -> {
            TaskSnapshot before = task.placementError() == null ? null : task.snapshot();
            if (!task.place(cell, now)) {
                return false;
            }
            if (before == null) {
                changes.written(task);
            } else {
                changes.changed(before, task, "placed on " + cell, null);
            }
            byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(task);
            return true;
        });
        byCell.forEach((cell, placed) -> changes.command(OutboxMessage.of(Topics.AUCTION_RESULTS, cell,
                new TasksPlaced(ids.get(), cell, auctionId, placed.stream().map(t -> new TasksPlaced.TaskPlacement(
                        t.guid(), t.epoch(), t.definition().memoryMb(), t.definition().diskMb())).toList()))));
        return outcomes;
    }

    /** {@code placedOn}: the cell turning its placements away, or null when no cell could be chosen. */
    Map<String, Outcome> failPlacement(Map<String, String> errorByGuid, String placedOn, Actor actor,
            TaskChanges changes) {
        Instant now = now();
        return each(errorByGuid, (task, error) -> changed(task, error, actor, changes,
                () -> task.failPlacement(error, placedOn, now)));
    }

    /** Another auction for tasks still as the converger saw them (their last change or placement). */
    Map<String, Outcome> retryPlacement(Map<String, Instant> seenByGuid, String reason, TaskChanges changes) {
        Instant now = now();
        List<Task> retried = new ArrayList<>();
        Map<String, Outcome> outcomes = each(seenByGuid, (task, seen) -> changed(task,
                reason + " (attempt " + (task.placementAttempts() + 2) + ")", null, changes, () -> {
                    task.retryPlacement(seen, now);
                    retried.add(task);
                    return true;
                }));
        requestAuction(retried, reason, changes);
        return outcomes;
    }

    /** Each start's outcome, with the definition of the task it found (a refused start's too). */
    Map<String, TaskStarted> start(Map<String, TaskStart> starts, Actor actor, TaskChanges changes) {
        Instant now = now();
        Map<String, TaskDefinition> found = new HashMap<>();
        Map<String, Outcome> outcomes = each(starts, (task, s) -> {
            found.put(task.guid(), task.definition());
            return changed(task, "started on " + s.cellId(), Actor.cell(s.cellId()), changes, () -> task.start(s, now));
        });
        Map<String, TaskStarted> started = new LinkedHashMap<>();
        outcomes.forEach((guid, outcome) -> started.put(guid, new TaskStarted(outcome, found.get(guid))));
        return started;
    }

    Map<String, Outcome> complete(Map<String, TaskCompletion> completions, TaskChanges changes) {
        Instant now = now();
        return each(completions, (task, c) -> changed(task, c.failed() ? c.failureReason() : "succeeded",
                Actor.cell(c.cellId()), changes, () -> task.complete(c, now)));
    }

    /** Cancels one task; a running one's cell is asked to stop its process. */
    Outcome cancel(String guid, TaskChanges changes) {
        Instant now = now();
        return each(Map.of(guid, guid), (task, g) -> {
            TaskSnapshot before = task.snapshot();
            String runningOn = task.state() == TaskState.RUNNING ? task.cellId() : null;
            if (!task.cancel(now)) {
                return false;
            }
            changes.changed(before, task, Task.CANCELLED, null);
            if (runningOn != null) {
                changes.command(OutboxMessage.of(Topics.STOP_REQUESTS, runningOn,
                        new TaskCancelRequested(ids.get(), runningOn, task.guid(), Task.CANCELLED)));
            }
            return true;
        }).get(guid);
    }

    Map<String, Outcome> fail(Map<String, String> reasonByGuid, Set<TaskState> expected, TaskChanges changes) {
        Instant now = now();
        return each(reasonByGuid, (task, reason) -> changed(task, reason, null, changes, () -> {
            task.fail(reason, expected, now);
            return true;
        }));
    }

    Map<String, Outcome> resolving(List<String> guids, TaskChanges changes) {
        Instant now = now();
        return each(asMap(guids), (task, g) -> changed(task, "resolving", null, changes, () -> {
            task.resolving(now);
            return true;
        }));
    }

    Map<String, Outcome> revertResolving(List<String> guids, String reason, TaskChanges changes) {
        Instant now = now();
        return each(asMap(guids), (task, g) -> changed(task, reason, null, changes, () -> task.revertResolving(now)));
    }

    /** Deletes tasks in one of {@code expected}; a task that is gone already is a no-op. */
    Map<String, Outcome> delete(List<String> guids, Set<TaskState> expected, String reason, TaskChanges changes) {
        return deleteEach(guids, reason, changes, t -> t.delete(expected));
    }

    /** Deletes completed tasks nobody resolved, unless their callback is still due; one gone already is a no-op. */
    Map<String, Outcome> expire(List<String> guids, String reason, TaskChanges changes) {
        return deleteEach(guids, reason, changes, Task::expire);
    }

    /**
     * Records how each callback attempt ended, on the tasks its sender holds (RESOLVING): a delivered one is deleted
     * (its removal event shows it delivered), the others go back to COMPLETED with the attempt counted.
     */
    Map<String, Outcome> callbackAnswered(Map<String, CallbackAnswer> answers, TaskChanges changes) {
        Instant now = now();
        return each(answers, (task, answer) -> {
            TaskSnapshot before = task.snapshot();
            task.callbackAnswered(answer, now);
            switch (answer.next()) {
                case DELIVERED -> changes.removed(task, task.snapshot(), "callback delivered ("
                        + answer.describe() + ")", null);
                case PENDING -> changes.callbackChanged(before, task, "callback failed (" + answer.describe()
                        + "), next attempt at " + answer.nextAttemptAt());
                case GIVEN_UP -> changes.callbackChanged(before, task, "callback given up (" + answer.describe()
                        + ")");
            }
            return true;
        });
    }

    private Map<String, Outcome> deleteEach(List<String> guids, String reason, TaskChanges changes,
            java.util.function.Consumer<Task> verb) {
        Map<String, Task> tasks = store.load(guids);
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        for (String guid : guids) {
            Task task = tasks.get(guid);
            outcomes.put(guid, task == null ? Outcome.NO_OP : apply(task, t -> {
                TaskSnapshot before = t.snapshot();
                verb.accept(t);
                changes.removed(t, before, reason, null);
                return true;
            }));
        }
        return outcomes;
    }

    /** A client resolves a completed task: it becomes RESOLVING and is deleted, in one go (one removal event). */
    Outcome resolveAndDelete(String guid, String reason, TaskChanges changes) {
        Instant now = now();
        return each(Map.of(guid, guid), (task, g) -> {
            TaskSnapshot before = task.snapshot();
            task.resolving(now);
            task.delete(EnumSet.of(TaskState.RESOLVING));
            changes.removed(task, before, reason, null);
            return true;
        }).get(guid);
    }

    /** Task times as PostgreSQL keeps them (microseconds), so a task in memory equals the task read back. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private void requestAuction(List<Task> tasks, String reason, TaskChanges changes) {
        if (tasks.isEmpty()) {
            return;
        }
        List<String> guids = tasks.stream().map(Task::guid).toList();
        changes.command(OutboxMessage.of(Topics.START_REQUESTS, guids.get(0),
                LrpStartRequested.forTasks(ids.get(), tasks.get(0).definition().domain(), guids, reason)));
    }

    /** The generic loop: one load for every guid, then the verb per task; a forbidden transition is REJECTED. */
    private <T> Map<String, Outcome> each(Map<String, T> requests, Verb<T> verb) {
        Map<String, Task> tasks = store.load(requests.keySet());
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        requests.forEach((guid, request) -> {
            Task task = tasks.get(guid);
            outcomes.put(guid, task == null ? Outcome.NOT_FOUND : apply(task, t -> verb.apply(t, request)));
        });
        return outcomes;
    }

    private static boolean changed(Task task, String reason, Actor actor, TaskChanges changes,
            Supplier<Boolean> verb) {
        TaskSnapshot before = task.snapshot();
        boolean changed = verb.get();
        if (changed) {
            changes.changed(before, task, reason, actor);
        }
        return changed;
    }

    private static Outcome apply(Task task, java.util.function.Predicate<Task> verb) {
        try {
            return verb.test(task) ? Outcome.CHANGED : Outcome.NO_OP;
        } catch (IllegalTaskTransitionException e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    private static Map<String, String> asMap(List<String> guids) {
        Map<String, String> map = new LinkedHashMap<>();
        guids.forEach(g -> map.put(g, g));
        return map;
    }

    @FunctionalInterface
    private interface Verb<T> {
        boolean apply(Task task, T request);
    }
}
