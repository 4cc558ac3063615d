package io.drover.converger.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.task.CallbackStatus;
import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.task.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Each task rule, case by case: given these tasks and live cells, exactly this plan. */
class TaskConvergenceTest {

    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Set<String> LIVE = Set.of("cell-a");

    private final TaskConvergence convergence = new TaskConvergence(new TaskConvergence.Settings(
            Duration.ofSeconds(30), 3, 2, Duration.ofMinutes(30), Duration.ofMinutes(2), Duration.ofMinutes(2)));

    private TaskPlan plan(TaskSummary... tasks) {
        return convergence.plan(new ConvergenceSnapshot(NOW, List.of(), List.of(), LIVE, Set.of(),
                ConvergenceSnapshot.Pipeline.caughtUp(NOW)), List.of(tasks));
    }

    @Test
    void tasksDoingWhatTheyShouldNeedNothing() {
        assertThat(plan(pending("fresh", null, null, 29, 0, null, 60),
                pending("placed", "cell-a", 10, 40, 0, null, 60),
                running("busy", "cell-a"),
                resolving("handing-on", 119),
                completed("done", 119))).isEqualTo(TaskPlan.builder().build());
    }

    @Test
    void aPendingTaskUntouchedForLongerThanThirtySecondsIsAuctionedAgain() {
        assertThat(plan(pending("lost-request", null, null, 31, 0, null, 40),
                pending("never-started", "cell-a", 31, 45, 1, null, 50))).isEqualTo(TaskPlan.builder()
                .retry("lost-request", NOW.minusSeconds(31)).retry("never-started", NOW.minusSeconds(31)).build());
    }

    @Test
    void aTaskPlacedOnALostCellIsAuctionedAgainAtOnce() {
        assertThat(plan(pending("orphaned", "cell-gone", 1, 5, 0, null, 5)))
                .isEqualTo(TaskPlan.builder().retry("orphaned", NOW.minusSeconds(1)).build());
    }

    @Test
    void afterItsLastRetryATaskFailsWithItsPlacementError() {
        assertThat(plan(pending("too-big", null, null, 31, 3, "insufficient resources: memory", 200),
                pending("nobody-started-it", null, null, 31, 3, null, 200))).isEqualTo(TaskPlan.builder()
                .failPending("too-big", "insufficient resources: memory")
                .failPending("nobody-started-it", "not placed after the last placement attempt").build());
    }

    @Test
    void retriesBeyondThePerPassLimitWaitForTheNextPass() {
        assertThat(plan(pending("a", null, null, 31, 0, null, 40), pending("b", null, null, 31, 0, null, 40),
                pending("c", null, null, 31, 0, null, 40))).isEqualTo(TaskPlan.builder()
                .retry("a", NOW.minusSeconds(31)).retry("b", NOW.minusSeconds(31)).deferRetry().build());
    }

    @Test
    void aTaskPendingForThirtyMinutesFails() {
        assertThat(plan(pending("forever", "cell-a", 5, 10, 1, null, 30 * 60 + 1))).isEqualTo(TaskPlan.builder()
                .failPending("forever", "not started within time limit").build());
    }

    @Test
    void aTaskRunningOnALostCellFails() {
        assertThat(plan(running("stranded", "cell-gone"))).isEqualTo(TaskPlan.builder()
                .failRunning("stranded", "cell disappeared before completion").build());
    }

    @Test
    void aNewLeadersGraceKeepsATaskRunningOnACellThatDiedWhileNobodyJudged() {
        ConvergenceSnapshot snapshot = new ConvergenceSnapshot(NOW, List.of(), List.of(), LIVE, Set.of(),
                ConvergenceSnapshot.Pipeline.caughtUp(NOW),
                Map.of("cell-unjudged", NOW.minusSeconds(30), "cell-judged", NOW.minusSeconds(90),
                        "cell-died-later", NOW.minusSeconds(5)),
                ElectionGrace.of(NOW.minusSeconds(60), NOW.minusSeconds(10), Duration.ofSeconds(15)));

        assertThat(convergence.plan(snapshot, List.of(running("spared", "cell-unjudged"),
                running("judged", "cell-judged"), running("watched", "cell-died-later"))))
                .isEqualTo(TaskPlan.builder().failRunning("judged", "cell disappeared before completion")
                        .failRunning("watched", "cell disappeared before completion").build());
    }

    @Test
    void afterADatabaseOutageATaskRunningOnACellWhosePresenceRanOutSinceTheLastPassKeepsRunning() {
        ConvergenceSnapshot snapshot = new ConvergenceSnapshot(NOW, List.of(), List.of(), LIVE, Set.of(),
                ConvergenceSnapshot.Pipeline.caughtUp(NOW),
                Map.of("cell-away", NOW.minusSeconds(30), "cell-judged", NOW.minusSeconds(90),
                        "cell-not-back-yet", NOW.minusSeconds(5)),
                ElectionGrace.afterOutage(NOW.minusSeconds(60), NOW.minusSeconds(10), Duration.ofSeconds(15)));

        assertThat(convergence.plan(snapshot, List.of(running("spared", "cell-away"),
                running("judged", "cell-judged"), running("not-back-yet", "cell-not-back-yet"))))
                .isEqualTo(TaskPlan.builder().failRunning("judged", "cell disappeared before completion").build());
    }

    @Test
    void resolvingForMoreThanTwoMinutesGoesBackToCompleted() {
        assertThat(plan(resolving("abandoned", 121))).isEqualTo(TaskPlan.builder().revertResolving("abandoned")
                .build());
    }

    @Test
    void aCompletedTaskNobodyResolvedIsDeletedTwoMinutesAfterItCompleted() {
        assertThat(plan(completed("forgotten", 121))).isEqualTo(TaskPlan.builder().expire("forgotten").build());
    }

    @Test
    void aCompletedTaskWhoseCallbackIsStillDueIsNeverDeleted() {
        assertThat(plan(withCallback("due", 3600, CallbackStatus.PENDING, 30))).isEqualTo(TaskPlan.builder().build());
    }

    @Test
    void aTaskWhoseCallbackWasGivenUpIsDeletedTwoMinutesAfterTheLastAttempt() {
        assertThat(plan(withCallback("given-up-lately", 3600, CallbackStatus.GIVEN_UP, 119),
                withCallback("given-up-long-ago", 3600, CallbackStatus.GIVEN_UP, 121)))
                .isEqualTo(TaskPlan.builder().expire("given-up-long-ago").build());
    }

    /** A PENDING task: placed on {@code cell} {@code placedAgo} seconds ago (or not), changed {@code changedAgo}. */
    static TaskSummary pending(String guid, String cell, Integer placedAgo, int changedAgo, int attempts, String error,
            int createdAgo) {
        return new TaskSummary(guid, TaskState.PENDING, null, cell, placedAgo == null ? null : ago(placedAgo), error,
                attempts, ago(createdAgo), ago(changedAgo), null, UUID.randomUUID());
    }

    static TaskSummary running(String guid, String cell) {
        return new TaskSummary(guid, TaskState.RUNNING, cell, null, null, null, 0, ago(3600), ago(3600), null,
                UUID.randomUUID());
    }

    static TaskSummary resolving(String guid, int changedAgo) {
        return new TaskSummary(guid, TaskState.RESOLVING, "cell-a", null, null, null, 0, ago(600), ago(changedAgo),
                ago(changedAgo), UUID.randomUUID());
    }

    static TaskSummary completed(String guid, int completedAgo) {
        return new TaskSummary(guid, TaskState.COMPLETED, "cell-a", null, null, null, 0, ago(600), ago(completedAgo),
                ago(completedAgo), UUID.randomUUID());
    }

    static TaskSummary withCallback(String guid, int completedAgo, CallbackStatus callback, int lastAttemptAgo) {
        return new TaskSummary(guid, TaskState.COMPLETED, "cell-a", null, null, null, 0, ago(7200), ago(completedAgo),
                ago(completedAgo), UUID.randomUUID(), callback, ago(lastAttemptAgo));
    }

    static Instant ago(int seconds) {
        return NOW.minusSeconds(seconds);
    }
}
