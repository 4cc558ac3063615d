package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.Actor;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.messaging.Topics;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskStarted;
import io.drover.model.task.TaskState;
import io.drover.rep.cell.Allocations;
import io.drover.rep.executor.ExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedExecutor;
import io.drover.rep.task.CellTasks;
import io.drover.rep.task.TaskWrites;
import io.drover.test.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.kafka.core.KafkaTemplate;

/** A cell's tasks through the real topics and database: placed, started once, completed, failed and cancelled. */
class CellTasksIT extends SingleCellSupport {

    @Autowired
    TaskLifecycle taskLifecycle;
    @Autowired
    TaskReads taskReads;
    @Autowired
    KafkaTemplate<String, String> kafka;

    Tasks tasks;

    @BeforeEach
    void taskFixtures() {
        tasks = new Tasks(taskLifecycle, taskReads);
    }

    @Test
    void aPlacedTaskRunsOnceAndARedeliveredResultRunsNothing() {
        String guid = tasks.submit("once", Tasks.run("work"), "out.txt");
        UUID epoch = tasks.find(guid).modificationTag().epoch();
        tasks.place(guid, CELL);

        TaskSnapshot done = awaitCompleted(guid);
        assertThat(done.failed()).isFalse();
        assertThat(done.cellId()).isEqualTo(CELL);
        assertThat(done.result()).as("a simulated task's result file is empty").isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> taskExecutor().containers().isEmpty());

        // redelivered as the auctioneer sends it now, and in the shape before tasks had messages of their own
        ProducerRecord<String, String> again = new ProducerRecord<>(Topics.AUCTION_RESULTS, CELL, Json.write(
                new TasksPlaced(UUID.randomUUID(), CELL, UUID.randomUUID(), List.of(new TasksPlaced.TaskPlacement(
                        guid, epoch)))));
        again.headers().add(Topics.MESSAGE_TYPE_HEADER, TasksPlaced.TYPE.getBytes(StandardCharsets.UTF_8));
        kafka.send(again);
        kafka.send(Topics.AUCTION_RESULTS, CELL, Json.write(legacyTasksPlaced(guid, epoch)));
        String later = tasks.submit("after", Tasks.run("work"), null);
        tasks.place(later, CELL);
        awaitCompleted(later);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM lrp_events WHERE entity = 'task' AND process_guid = ? "
                + "AND to_state = 'RUNNING'", Integer.class, guid)).as("started once").isEqualTo(1);
        assertThat(tasks.find(guid)).isEqualTo(done);
    }

    @SuppressWarnings("deprecation")
    private static LrpsPlaced legacyTasksPlaced(String guid, UUID epoch) {
        return new LrpsPlaced(UUID.randomUUID(), CELL, UUID.randomUUID(), List.of(),
                List.of(new TasksPlaced.TaskPlacement(guid, epoch)));
    }

    @Test
    void aFinishedTasksLogIsStillServedOnceItsContainerIsForgotten() {
        String guid = tasks.submit("kept-log", Tasks.run("work"), null);
        String epoch = tasks.find(guid).modificationTag().epoch().toString();
        tasks.place(guid, CELL);
        awaitCompleted(guid);
        await().atMost(Duration.ofSeconds(10)).until(() -> taskExecutor().container(epoch).isEmpty());

        assertThat(logOf(epoch)).as("kept after the container was forgotten").hasValueSatisfying(log ->
                assertThat(log.tail(100, java.util.EnumSet.allOf(io.drover.rep.executor.LogSource.class)))
                        .isNotEmpty());
    }

    @Test
    void aFailingActionCompletesTheTaskAsFailedWithTheReason() {
        String guid = tasks.submit("failing", Tasks.run("false"), null);
        tasks.place(guid, CELL);

        TaskSnapshot done = awaitCompleted(guid);
        assertThat(done.failed()).isTrue();
        assertThat(done.failureReason()).isEqualTo("exited with status 1");
    }

    @Test
    void aCancelledTaskHasItsContainerStoppedAndItsResourcesFreed() {
        String guid = tasks.submit("long", Tasks.steps(600), null);
        tasks.place(guid, CELL);
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.find(guid).state() == TaskState.RUNNING
                && !taskExecutor().containers().isEmpty());

        taskLifecycle.cancel(guid, Actor.service("test"));

        await().atMost(Duration.ofSeconds(20)).until(() -> taskExecutor().containers().isEmpty());
        assertThat(taskExecutor().used().containers()).isZero();
        assertThat(tasks.find(guid).failureReason()).isEqualTo("cancelled");
    }

    @Test
    void aTaskTooBigForWhatTheCellHasLeftIsTurnedAway() {
        String guid = "huge-" + UUID.randomUUID();
        taskLifecycle.submit(new io.drover.model.task.TaskDefinition(guid, "d1", "preloaded:host", Tasks.run("work"),
                List.of(), 100_000, 16, 0, 0, List.of(), null, null, null, null, null), Tasks.TEST);
        tasks.place(guid, CELL);

        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.find(guid).placementError() != null);
        TaskSnapshot waiting = tasks.find(guid);
        assertThat(waiting.state()).isEqualTo(TaskState.PENDING);
        assertThat(waiting.placementError()).isEqualTo("insufficient resources: memory");
    }

    @Test
    void aTaskWhoseStartCommittedButWhoseAnswerWasLostIsFailedByTheSync() {
        String cell = "lost-answer-" + UUID.randomUUID().toString().substring(0, 8);
        Resources size = new Resources(1024, 1024, 10);
        MutableClock clock = new MutableClock(Instant.now());
        CellTasks cellTasks = new CellTasks(cell, executors.createForTasks(cell, "127.0.0.1", size), taskReads,
                answerLostAfterStart(cell), new Allocations(size), () -> {
                }, Duration.ofSeconds(1), clock);
        cellTasks.start();
        cellTasks.sync(false);
        String guid = tasks.submit("lost-answer", Tasks.run("work"), null);
        tasks.place(guid, cell);
        cellTasks.placed(List.of(new TasksPlaced.TaskPlacement(guid, tasks.find(guid).modificationTag().epoch())),
                () -> {
                });

        assertThatThrownBy(() -> cellTasks.pass(false)).as("the start committed, its answer was lost")
                .isInstanceOf(DataAccessResourceFailureException.class);
        cellTasks.pass(false);
        assertThat(tasks.find(guid).state()).isEqualTo(TaskState.RUNNING);
        assertThat(cellTasks.containers()).as("the cell never ran it").isZero();
        cellTasks.sync(false);
        assertThat(tasks.find(guid).state()).as("a start in flight is given its grace").isEqualTo(TaskState.RUNNING);

        // past the grace counted from the start's commit (PostgreSQL's time), however long after this clock's start
        clock.advance(Duration.ofSeconds(90));
        cellTasks.sync(false);

        TaskSnapshot failed = tasks.find(guid);
        assertThat(failed.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(failed.failureReason()).isEqualTo("the cell has no process for the task");
        cellTasks.close();
    }

    /**
     * A placement says what its task takes of the cell: the cell admits and starts it without reading the task, and runs
     * it from what the start read. One written before placements said so has its task read first, as always.
     */
    @Test
    void aPlacementThatSaysWhatItsTaskTakesIsRunWithoutReadingTheTask() {
        String cell = "no-read-" + UUID.randomUUID().toString().substring(0, 8);
        Resources size = new Resources(1024, 1024, 10);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        TaskReads counted = new TaskReads(jdbc) {
            @Override
            public Map<String, TaskSnapshot> find(java.util.Collection<String> guids) {
                reads.incrementAndGet();
                return super.find(guids);
            }
        };
        SimulatedExecutor executor = (SimulatedExecutor) executors.createForTasks(cell, "127.0.0.1", size);
        CellTasks cellTasks = new CellTasks(cell, executor, counted, lifecycleWrites(cell), new Allocations(size),
                () -> {
                }, Duration.ofSeconds(1), Clock.systemUTC());
        String said = tasks.submit("said", Tasks.steps(600), "out.txt");
        String unsaid = tasks.submit("unsaid", Tasks.steps(600), null);
        tasks.place(said, cell);
        tasks.place(unsaid, cell);

        cellTasks.placed(List.of(new TasksPlaced.TaskPlacement(said, tasks.find(said).modificationTag().epoch(), 64,
                16)), () -> {
                });
        cellTasks.pass(false);
        assertThat(reads).as("reads before the start").hasValue(0);
        cellTasks.placed(List.of(new TasksPlaced.TaskPlacement(unsaid, tasks.find(unsaid).modificationTag().epoch())),
                () -> {
                });
        cellTasks.pass(false);

        assertThat(reads).as("the placement from before issue 37 reads its task").hasValue(1);
        assertThat(List.of(tasks.find(said).state(), tasks.find(unsaid).state())).containsOnly(TaskState.RUNNING);
        assertThat(executor.containers()).extracting(c -> c.key().processGuid()).containsExactlyInAnyOrder(said,
                unsaid);
        assertThat(executor.used()).isEqualTo(new Resources(128, 32, 2));
        cellTasks.close();
    }

    /** The cell's writes straight through the lifecycle, as a rep's group commit makes them. */
    private TaskWrites lifecycleWrites(String cell) {
        return new TaskWrites() {
            @Override
            public Map<String, TaskStarted> startTasks(Map<String, TaskStart> starts) {
                return taskLifecycle.startToRun(starts, Actor.cell(cell));
            }

            @Override
            public Map<String, Outcome> completeTasks(Map<String, TaskCompletion> completions) {
                return taskLifecycle.complete(completions, Actor.cell(cell));
            }

            @Override
            public Map<String, Outcome> rejectTasks(String cellId, Map<String, String> errors) {
                return taskLifecycle.rejectPlacement(cellId, errors, Actor.cell(cell));
            }
        };
    }

    /** The cell's writes, as a rep's whose connection breaks once a start has committed: the answer never comes. */
    private TaskWrites answerLostAfterStart(String cell) {
        return new TaskWrites() {
            @Override
            public Map<String, TaskStarted> startTasks(Map<String, TaskStart> starts) {
                taskLifecycle.startToRun(starts, Actor.cell(cell));
                throw new DataAccessResourceFailureException("connection reset after the commit");
            }

            @Override
            public Map<String, Outcome> completeTasks(Map<String, TaskCompletion> completions) {
                return taskLifecycle.complete(completions, Actor.cell(cell));
            }

            @Override
            public Map<String, Outcome> rejectTasks(String cellId, Map<String, String> errors) {
                return taskLifecycle.rejectPlacement(cellId, errors, Actor.cell(cell));
            }
        };
    }

    private TaskSnapshot awaitCompleted(String guid) {
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.find(guid).state() == TaskState.COMPLETED);
        return tasks.find(guid);
    }

    private SimulatedExecutor taskExecutor() {
        return executors.executor(CELL + ExecutorFactory.TASKS_SUFFIX).orElseThrow();
    }
}
