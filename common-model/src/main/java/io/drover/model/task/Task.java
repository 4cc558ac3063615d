package io.drover.model.task;

import static io.drover.model.task.TaskState.COMPLETED;
import static io.drover.model.task.TaskState.PENDING;
import static io.drover.model.task.TaskState.RESOLVING;
import static io.drover.model.task.TaskState.RUNNING;

import io.drover.model.lrp.ModificationTag;
import io.drover.model.placement.Placement;
import io.drover.model.placement.PlacementState;
import io.drover.model.time.Instants;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * One task: THE task state machine. A plain domain object read and written by {@link TaskStore} over JDBC, with no
 * setters: each verb checks {@link TaskTransitions the transition table}, treats an exact repeat as a no-op (returns
 * {@code false}) and throws {@link IllegalTaskTransitionException} for anything the table forbids. Only the lifecycle
 * calls the verbs (they are package-private), inside its transactions.
 */
public final class Task {

    /** The failure reason of a cancelled task. */
    public static final String CANCELLED = "cancelled";

    /** A task has one definition: placements of a task are made for this version. */
    static final int DEFINITION_VERSION = 1;

    private final TaskDefinition definition;
    private final UUID epoch;
    private final Instant createdAt;
    private TaskState state;
    private String cellId;
    private boolean failed;
    private String failureReason;
    private String result;
    private PlacementState placement = PlacementState.NONE;
    private int placementAttempts;
    private Instant updatedAt;
    private Instant firstCompletedAt;
    private TaskCallback callback;
    private long version;

    private Task(TaskDefinition definition, UUID epoch, Instant createdAt) {
        this.definition = Objects.requireNonNull(definition);
        this.epoch = Objects.requireNonNull(epoch);
        this.createdAt = Objects.requireNonNull(createdAt);
        this.state = PENDING;
        this.result = "";
        this.updatedAt = createdAt;
        this.callback = TaskCallback.of(definition);
    }

    /** A newly submitted task, waiting for an auction. */
    static Task pending(TaskDefinition definition, UUID epoch, Instant now) {
        return new Task(definition, epoch, now);
    }

    /** A task as stored; for {@link TaskStore} only. */
    static Task stored(TaskDefinition definition, UUID epoch, Instant createdAt, Stored s) {
        Task task = new Task(definition, epoch, createdAt);
        task.state = s.state();
        task.cellId = s.cellId();
        task.failed = s.failed();
        task.failureReason = s.failureReason();
        task.result = s.result();
        task.placement = new PlacementState(s.placedCellId(), s.placedAt(), s.placementError());
        task.placementAttempts = s.placementAttempts();
        task.updatedAt = s.updatedAt();
        task.firstCompletedAt = s.firstCompletedAt();
        task.callback = s.callback();
        task.version = s.version();
        return task;
    }

    /** The mutable columns of a stored task. */
    record Stored(TaskState state, String cellId, boolean failed, String failureReason, String result,
            String placementError, String placedCellId, Instant placedAt, int placementAttempts, Instant updatedAt,
            Instant firstCompletedAt, TaskCallback callback, long version) {
    }

    /** The auctioneer chose {@code cell}: the task stays PENDING and remembers the placement in flight. */
    boolean place(String cell, Instant now) {
        TaskTransitions.check(guid(), state, cellId, null, PENDING);
        return changePlacement(placement.placedOn(cell, now));
    }

    /**
     * No cell could (or would) take it: it stays PENDING with the reason. A cell turning its placement away names itself
     * in {@code placedOn}, and the task fails its placement only while that placement is the current one.
     */
    boolean failPlacement(String error, String placedOn, Instant now) {
        TaskTransitions.check(guid(), state, cellId, placedOn, PENDING);
        if (placedOn != null && !placement.isOn(placedOn)) {
            throw new IllegalTaskTransitionException(guid(), "cannot fail placement on " + placedOn + ": "
                    + placement.describe());
        }
        boolean changed = changePlacement(placement.failed(error));
        updatedAt = changed ? now : updatedAt;
        return changed;
    }

    /**
     * The converger asks for another auction (the last one was lost, failed or never started): one more attempt. Only
     * while the task is as the converger saw it ({@code seenLastTouched}): a placement made since is left alone.
     */
    void retryPlacement(Instant seenLastTouched, Instant now) {
        TaskTransitions.check(guid(), state, cellId, null, PENDING);
        if (!lastTouched().equals(seenLastTouched)) {
            throw new IllegalTaskTransitionException(guid(), "placed or changed since the repair was planned");
        }
        placement = placement.withdrawn();
        placementAttempts++;
        updatedAt = now;
    }

    /**
     * The cell an auction placed the task on starts it (Diego's StartTask): only while that placement is the current one
     * (PENDING, placed on this cell, same epoch), so a redelivered or overtaken auction result never runs it twice.
     */
    boolean start(TaskStart request, Instant now) {
        String cell = Objects.requireNonNull(request.cellId(), "cell");
        if (state == RUNNING && cell.equals(cellId)) {
            return false;
        }
        TaskTransitions.check(guid(), state, cellId, cell, RUNNING);
        Placement placed = request.placedEpoch() == null ? null
                : new Placement(cell, request.placedEpoch(), DEFINITION_VERSION);
        if (placed == null || !placed.isCurrent(placement, epoch, DEFINITION_VERSION)) {
            throw new IllegalTaskTransitionException(guid(), "placement on " + cell + " is no longer current ("
                    + (placed == null ? placement.describe()
                            : placed.whyNotCurrent(placement, epoch, DEFINITION_VERSION)) + ")");
        }
        state = RUNNING;
        cellId = cell;
        placement = PlacementState.NONE;
        updatedAt = now;
        return true;
    }

    /** The cell running it reports how its action ended. The first completion wins; an identical repeat is a no-op. */
    boolean complete(TaskCompletion c, Instant now) {
        if (state == COMPLETED && c.cellId().equals(cellId) && failed == c.failed()
                && Objects.equals(failureReason, c.failureReason()) && Objects.equals(result, c.result())) {
            return false;
        }
        TaskTransitions.check(guid(), state, cellId, c.cellId(), COMPLETED);
        finish(c.failed(), c.failureReason(), c.result(), now);
        return true;
    }

    /**
     * The client cancels it: COMPLETED, failed, "cancelled" (a running one keeps its cell_id, whose process the cell is
     * then asked to stop). Cancelling a task already cancelled is a no-op; one that completed otherwise cannot be.
     */
    boolean cancel(Instant now) {
        if (state == COMPLETED && failed && CANCELLED.equals(failureReason)) {
            return false;
        }
        if (!TaskTransitions.isLive(state)) {
            throw new IllegalTaskTransitionException(guid(), "cannot cancel a task that is " + state);
        }
        TaskTransitions.check(guid(), state, cellId, null, COMPLETED);
        placement = placement.withdrawn();
        finish(true, CANCELLED, "", now);
        return true;
    }

    /** A repair: fails a task still in one of {@code expected} (the states the repair was planned for). */
    void fail(String reason, Set<TaskState> expected, Instant now) {
        requireExpected(expected, "not failed");
        TaskTransitions.check(guid(), state, cellId, null, COMPLETED);
        placement = placement.withdrawn();
        finish(true, reason, "", now);
    }

    /** Someone takes the completion to hand it on (the callback worker, a DELETE): the lock on the task. */
    void resolving(Instant now) {
        TaskTransitions.check(guid(), state, cellId, null, RESOLVING);
        state = RESOLVING;
        updatedAt = now;
    }

    /** The resolver gave up (or vanished): the completion waits for the next one; already COMPLETED is a no-op. */
    boolean revertResolving(Instant now) {
        if (state == COMPLETED) {
            return false;
        }
        TaskTransitions.check(guid(), state, cellId, null, COMPLETED);
        state = COMPLETED;
        updatedAt = now;
        return true;
    }

    /**
     * The callback worker, which holds the task (RESOLVING), says how its attempt ended: delivered (the lifecycle then
     * deletes the task), to be tried again at a later time, or given up; either of the last two hands the task back
     * (COMPLETED), for the next attempt or for a client. A task no longer held (a resolver that vanished was replaced)
     * is refused: the attempt's answer comes too late to matter.
     */
    void callbackAnswered(CallbackAnswer answer, Instant now) {
        if (callback == null) {
            throw new IllegalTaskTransitionException(guid(), "has no completion callback");
        }
        if (state != RESOLVING) {
            throw new IllegalTaskTransitionException(guid(), "callback answered while " + state
                    + ": the callback no longer holds the task");
        }
        switch (answer.next()) {
            case DELIVERED -> callback = callback.delivered(answer.status(), now);
            case PENDING -> callback = callback.retried(answer.status(), now, answer.nextAttemptAt());
            case GIVEN_UP -> callback = callback.givenUp(answer.status(), now);
        }
        if (answer.next() != CallbackStatus.DELIVERED) {
            TaskTransitions.check(guid(), state, cellId, null, COMPLETED);
            state = COMPLETED;
            updatedAt = now;
        }
    }

    /** The task may be deleted now, if it is in one of {@code expected}. */
    void delete(Set<TaskState> expected) {
        requireExpected(expected, "not deleted");
        TaskTransitions.checkDelete(guid(), state);
    }

    /** Nobody resolved it in time: it may be deleted, if it is COMPLETED and its callback is not still due. */
    void expire() {
        delete(Set.of(COMPLETED));
        if (callback != null && callback.status() == CallbackStatus.PENDING) {
            throw new IllegalTaskTransitionException(guid(), "not expired: its completion callback is still due");
        }
    }

    /** After a successful versioned write. */
    void written() {
        version++;
    }

    private void finish(boolean hasFailed, String reason, String taskResult, Instant now) {
        state = COMPLETED;
        failed = hasFailed;
        failureReason = hasFailed ? reason : null;
        result = taskResult == null ? "" : taskResult;
        updatedAt = now;
        if (firstCompletedAt == null) {
            firstCompletedAt = now;
        }
    }

    private void requireExpected(Set<TaskState> expected, String what) {
        if (!expected.contains(state)) {
            throw new IllegalTaskTransitionException(guid(), what + ": " + state + " now, expected " + expected);
        }
    }

    private boolean changePlacement(PlacementState next) {
        boolean changed = next != placement;
        placement = next;
        return changed;
    }

    public String guid() {
        return definition.taskGuid();
    }

    public TaskDefinition definition() {
        return definition;
    }

    public UUID epoch() {
        return epoch;
    }

    public TaskState state() {
        return state;
    }

    public String cellId() {
        return cellId;
    }

    public boolean failed() {
        return failed;
    }

    public String failureReason() {
        return failureReason;
    }

    public String result() {
        return result;
    }

    /** The auctions' state of a PENDING task: the placement in flight, or why none could be made. */
    public PlacementState placement() {
        return placement;
    }

    public String placementError() {
        return placement.error();
    }

    public String placedCellId() {
        return placement.cellId();
    }

    public Instant placedAt() {
        return placement.placedAt();
    }

    public int placementAttempts() {
        return placementAttempts;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }

    public Instant firstCompletedAt() {
        return firstCompletedAt;
    }

    /** The completion callback's state; null when the task has no callback URL. */
    public TaskCallback callback() {
        return callback;
    }

    public long version() {
        return version;
    }

    /** The last change or placement: what the converger measures a waiting task's staleness from. */
    public Instant lastTouched() {
        return lastTouched(updatedAt, placement.placedAt());
    }

    /** The later of a task's last change and its placement. */
    public static Instant lastTouched(Instant updatedAt, Instant placedAt) {
        return Instants.later(updatedAt, placedAt);
    }

    public TaskSnapshot snapshot() {
        return new TaskSnapshot(definition, state, cellId, failed, failureReason, result, placement.error(), createdAt,
                updatedAt, firstCompletedAt, callback, new ModificationTag(epoch, version));
    }

    @Override
    public String toString() {
        return "Task[" + guid() + " " + state + (cellId == null ? "" : " on " + cellId) + " v" + version + "]";
    }
}
