package io.drover.rep.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.task.TaskState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The cell's task sync, case by case: what the containers and the database say, and the repair. */
class TaskSyncPlanTest {

    static final String CELL = "cell-a";
    static final UUID EPOCH = UUID.fromString("11111111-2222-3333-4444-555555555555");
    static final Instant T = Instant.parse("2026-03-01T12:00:00Z");
    static final Instant NOW = T.plusSeconds(31);

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("running here, container running", container(ContainerState.RUNNING),
                        task(TaskState.RUNNING, CELL, EPOCH), false, Set.of(), List.of()),
                Arguments.of("running here, no container, first sync", null, task(TaskState.RUNNING, CELL, EPOCH), true,
                        Set.of(), List.of(new TaskSyncPlan.Fail("t1", "cell restarted"))),
                Arguments.of("running here, no container, started longer ago than the grace", null,
                        task(TaskState.RUNNING, CELL, EPOCH), false, Set.of(),
                        List.of(new TaskSyncPlan.Fail("t1", "the cell has no process for the task"))),
                Arguments.of("running here, no container, started within the grace", null,
                        task(TaskState.RUNNING, CELL, EPOCH, NOW.minusSeconds(29)), false, Set.of(),
                        List.of(new TaskSyncPlan.Wait("t1"))),
                Arguments.of("running elsewhere, no container", null, task(TaskState.RUNNING, "cell-b", EPOCH), false,
                        Set.of(), List.of()),
                Arguments.of("cancelled while running", container(ContainerState.RUNNING),
                        task(TaskState.COMPLETED, CELL, EPOCH), false, Set.of(),
                        List.of(new TaskSyncPlan.Stop(container(ContainerState.RUNNING), "task is COMPLETED"))),
                Arguments.of("task deleted", container(ContainerState.STARTING), null, false, Set.of(),
                        List.of(new TaskSyncPlan.Stop(container(ContainerState.STARTING), "task is gone"))),
                Arguments.of("a newer task of the same guid", container(ContainerState.RUNNING),
                        task(TaskState.RUNNING, CELL, UUID.randomUUID()), false, Set.of(),
                        List.of(new TaskSyncPlan.Stop(container(ContainerState.RUNNING), "task is RUNNING"))),
                Arguments.of("already stopping", container(ContainerState.RUNNING),
                        task(TaskState.COMPLETED, CELL, EPOCH), false, Set.of(EPOCH.toString()), List.of()),
                Arguments.of("ended, waiting to be reported", container(ContainerState.CRASHED),
                        task(TaskState.RUNNING, CELL, EPOCH), false, Set.of(), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void repairs(String name, Container container, TaskSummary task, boolean firstSync, Set<String> busy,
            List<TaskSyncPlan.Action> expected) {
        List<TaskSyncPlan.Action> actions = TaskSyncPlan.plan(CELL, container == null ? List.of() : List.of(container),
                task == null ? List.of() : List.of(task), busy, firstSync, NOW);

        assertThat(actions).isEqualTo(expected);
    }

    static Container container(ContainerState state) {
        return new Container(ActualLrpKey.of("t1", 0), EPOCH.toString(), "d1", state, null,
                state == ContainerState.CRASHED ? "exited with status 0" : null);
    }

    static TaskSummary task(TaskState state, String cell, UUID epoch) {
        return task(state, cell, epoch, T);
    }

    static TaskSummary task(TaskState state, String cell, UUID epoch, Instant updatedAt) {
        return new TaskSummary("t1", state, cell, null, null, null, 0, T, updatedAt, null, epoch);
    }
}
