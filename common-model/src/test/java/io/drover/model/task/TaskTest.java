package io.drover.model.task;

import static io.drover.model.task.TaskState.COMPLETED;
import static io.drover.model.task.TaskState.PENDING;
import static io.drover.model.task.TaskState.RESOLVING;
import static io.drover.model.task.TaskState.RUNNING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.RunAction;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The task verbs: what each changes, which repeats are no-ops, and what the table makes them refuse. */
class TaskTest {

    static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    static final UUID EPOCH = UUID.fromString("a3e0c9f2-7d4b-4a51-8c33-5b2f0e9d1c77");

    static TaskDefinition definition(String guid) {
        return new TaskDefinition(guid, "d1", "preloaded:host",
                new Action(new RunAction("sh", List.of("-c", "echo hi"), null, null, null)), null, 64, 16, 0, 0,
                null, "out.txt", null, null, null, null);
    }

    static Task pending() {
        return Task.pending(definition("t1"), EPOCH, T0);
    }

    static Task running(String cell) {
        Task task = pending();
        task.place(cell, T0.plusSeconds(1));
        task.start(new TaskStart(cell, EPOCH), T0.plusSeconds(2));
        return task;
    }

    @Test
    void aSubmittedTaskWaitsForACell() {
        Task task = pending();
        assertThat(task.state()).isEqualTo(PENDING);
        assertThat(task.cellId()).isNull();
        assertThat(task.createdAt()).isEqualTo(T0);
        assertThat(task.updatedAt()).isEqualTo(T0);
        assertThat(task.snapshot().result()).isEmpty();
    }

    @Test
    void placingRemembersTheCellAndARepeatIsANoOp() {
        Task task = pending();
        assertThat(task.place("cell-a", T0.plusSeconds(1))).isTrue();
        assertThat(task.placedCellId()).isEqualTo("cell-a");
        assertThat(task.lastTouched()).isEqualTo(T0.plusSeconds(1));
        assertThat(task.place("cell-a", T0.plusSeconds(2))).isFalse();
        assertThat(task.state()).isEqualTo(PENDING);
    }

    @Test
    void onlyTheCellItIsPlacedOnMayTurnAPlacementAway() {
        Task task = pending();
        task.place("cell-a", T0);
        assertThatThrownBy(() -> task.failPlacement("insufficient resources: memory", "cell-b", T0))
                .isInstanceOf(IllegalTaskTransitionException.class).hasMessageContaining("placed on cell-a");
        assertThat(task.failPlacement("insufficient resources: memory", "cell-a", T0.plusSeconds(3))).isTrue();
        assertThat(task.placedCellId()).isNull();
        assertThat(task.placementError()).isEqualTo("insufficient resources: memory");
        assertThat(task.failPlacement("insufficient resources: memory", null, T0.plusSeconds(4))).isFalse();
    }

    @Test
    void startIsForThePlacedCellWithTheCurrentEpochAndARepeatIsANoOp() {
        Task task = pending();
        assertThatThrownBy(() -> task.start(new TaskStart("cell-a", EPOCH), T0)).as("never placed")
                .isInstanceOf(IllegalTaskTransitionException.class);
        task.place("cell-a", T0);
        assertThatThrownBy(() -> task.start(new TaskStart("cell-b", EPOCH), T0)).as("placed elsewhere")
                .isInstanceOf(IllegalTaskTransitionException.class);
        assertThatThrownBy(() -> task.start(new TaskStart("cell-a", UUID.randomUUID()), T0))
                .as("an earlier task of the same guid").isInstanceOf(IllegalTaskTransitionException.class);

        assertThat(task.start(new TaskStart("cell-a", EPOCH), T0.plusSeconds(5))).isTrue();
        assertThat(task.state()).isEqualTo(RUNNING);
        assertThat(task.cellId()).isEqualTo("cell-a");
        assertThat(task.placedCellId()).isNull();
        assertThat(task.start(new TaskStart("cell-a", EPOCH), T0.plusSeconds(6))).as("a redelivered placement")
                .isFalse();
        assertThatThrownBy(() -> task.start(new TaskStart("cell-b", EPOCH), T0)).as("a second cell never runs it")
                .isInstanceOf(IllegalTaskTransitionException.class);
    }

    @Test
    void theFirstCompletionWinsAndAnIdenticalRepeatIsANoOp() {
        Task task = running("cell-a");
        assertThatThrownBy(() -> task.complete(TaskCompletion.succeeded("cell-b", "x"), T0))
                .isInstanceOf(IllegalTaskTransitionException.class);
        assertThat(task.complete(TaskCompletion.succeeded("cell-a", "42"), T0.plusSeconds(9))).isTrue();
        assertThat(task.state()).isEqualTo(COMPLETED);
        assertThat(task.failed()).isFalse();
        assertThat(task.result()).isEqualTo("42");
        assertThat(task.firstCompletedAt()).isEqualTo(T0.plusSeconds(9));
        assertThat(task.cellId()).as("a completed task says where it ran").isEqualTo("cell-a");

        assertThat(task.complete(TaskCompletion.succeeded("cell-a", "42"), T0.plusSeconds(10))).isFalse();
        assertThatThrownBy(() -> task.complete(TaskCompletion.failed("cell-a", "exited with status 1"), T0))
                .isInstanceOf(IllegalTaskTransitionException.class);
    }

    @Test
    void aPendingOrRunningTaskCanBeCancelledOnceAndAgainAsANoOp() {
        for (Task task : List.of(pending(), running("cell-a"))) {
            assertThat(task.cancel(T0.plusSeconds(20))).isTrue();
            assertThat(task.state()).isEqualTo(COMPLETED);
            assertThat(task.failed()).isTrue();
            assertThat(task.failureReason()).isEqualTo("cancelled");
            assertThat(task.cancel(T0.plusSeconds(21))).isFalse();
        }
    }

    @Test
    void aTaskThatCompletedOtherwiseOrIsBeingResolvedCannotBeCancelled() {
        Task done = running("cell-a");
        done.complete(TaskCompletion.succeeded("cell-a", ""), T0);
        assertThatThrownBy(() -> done.cancel(T0)).isInstanceOf(IllegalTaskTransitionException.class);
        Task cancelled = pending();
        cancelled.cancel(T0);
        cancelled.resolving(T0);
        assertThatThrownBy(() -> cancelled.cancel(T0)).isInstanceOf(IllegalTaskTransitionException.class);
        assertThat(cancelled.state()).isEqualTo(RESOLVING);
    }

    @Test
    void resolvingIsALockOnlyOneResolverGets() {
        Task task = running("cell-a");
        assertThatThrownBy(() -> task.resolving(T0)).as("still running")
                .isInstanceOf(IllegalTaskTransitionException.class);
        task.complete(TaskCompletion.succeeded("cell-a", ""), T0);
        task.resolving(T0.plusSeconds(1));
        assertThat(task.state()).isEqualTo(RESOLVING);
        assertThatThrownBy(() -> task.resolving(T0)).isInstanceOf(IllegalTaskTransitionException.class);

        assertThat(task.revertResolving(T0.plusSeconds(2))).isTrue();
        assertThat(task.state()).isEqualTo(COMPLETED);
        assertThat(task.revertResolving(T0.plusSeconds(3))).isFalse();
        assertThat(task.firstCompletedAt()).isEqualTo(T0);
    }

    @Test
    void onlyACompletedOrResolvingTaskInAnExpectedStateMayBeDeleted() {
        Task task = running("cell-a");
        assertThatThrownBy(() -> task.delete(EnumSet.allOf(TaskState.class)))
                .isInstanceOf(IllegalTaskTransitionException.class);
        task.complete(TaskCompletion.failed("cell-a", "exited with status 2"), T0);
        assertThatThrownBy(() -> task.delete(EnumSet.of(RESOLVING))).as("not the state the caller expected")
                .isInstanceOf(IllegalTaskTransitionException.class);
        task.delete(EnumSet.of(COMPLETED));
        task.resolving(T0);
        task.delete(EnumSet.of(RESOLVING));
    }

    @Test
    void anotherAuctionCountsAnAttemptOnlyForATaskStillAsSeen() {
        Task task = pending();
        task.failPlacement("no cells available", null, T0.plusSeconds(1));
        task.retryPlacement(T0.plusSeconds(1), T0.plusSeconds(40));
        assertThat(task.placementAttempts()).isEqualTo(1);
        task.place("cell-a", T0.plusSeconds(41));
        assertThatThrownBy(() -> task.retryPlacement(T0.plusSeconds(40), T0.plusSeconds(80)))
                .as("placed since the repair was planned").isInstanceOf(IllegalTaskTransitionException.class);
        assertThat(task.placedCellId()).isEqualTo("cell-a");
    }

    @Test
    void aRepairFailsOnlyTasksInTheStatesItWasPlannedFor() {
        Task task = running("cell-a");
        assertThatThrownBy(() -> task.fail("not started within time limit", EnumSet.of(PENDING), T0))
                .isInstanceOf(IllegalTaskTransitionException.class);
        task.fail("cell disappeared before completion", EnumSet.of(RUNNING), T0.plusSeconds(30));
        assertThat(task.state()).isEqualTo(COMPLETED);
        assertThat(task.failed()).isTrue();
        assertThat(task.failureReason()).isEqualTo("cell disappeared before completion");
    }
}
