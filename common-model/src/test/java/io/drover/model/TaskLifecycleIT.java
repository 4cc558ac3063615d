package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.Records.Audit;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.lrp.RunAction;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.TaskCancelRequested;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.messaging.Topics;
import io.drover.model.read.CellAllocation;
import io.drover.model.read.CellLoads;
import io.drover.model.task.CallbackAnswer;
import io.drover.model.task.CallbackStatus;
import io.drover.model.task.IllegalTaskTransitionException;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskGuidAlreadyExistsException;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskAdmission;
import io.drover.model.task.TaskNotFoundException;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskStarted;
import io.drover.model.task.TaskState;
import io.drover.model.task.TaskSubmission;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Every {@link TaskLifecycle} operation end to end: the row, its audit rows (the task events) and its commands. */
@SpringBootTest
@WithDroverInfrastructure
class TaskLifecycleIT {

    static final Actor RECEPTOR = Actor.service("receptor");
    static final Actor AUCTIONEER = Actor.service("auctioneer");
    static final Actor CONVERGER = Actor.service("converger");

    @Autowired
    TaskLifecycle lifecycle;
    @Autowired
    TaskReads tasks;
    @Autowired
    CellLoads loads;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MutableClock clock;
    @Autowired
    Outbox outbox;

    Records records;
    String guid;

    @BeforeEach
    void newTask() {
        records = new Records(jdbc);
        guid = "task-" + UUID.randomUUID();
    }

    @Test
    void anIdenticalResubmissionGivesTheSameTaskAndADifferentOneIsRefused() {
        TaskSubmission first = lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);
        TaskSubmission again = lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);

        assertThat(first.created()).isTrue();
        assertThat(again.created()).isFalse();
        assertThat(again.task()).isEqualTo(first.task());
        assertThatThrownBy(() -> lifecycle.submit(definition(guid, "echo 2"), RECEPTOR))
                .isInstanceOf(TaskGuidAlreadyExistsException.class);
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class))
                .as("one auction for one submission").singleElement()
                .satisfies(r -> assertThat(r.taskGuids()).containsExactly(guid));
        assertThat(records.audit(guid)).singleElement().satisfies(a -> {
            assertThat(a.entity()).isEqualTo("task");
            assertThat(a.type()).isEqualTo(LifecycleEvent.TASK_CREATED);
            assertThat(a.to()).isEqualTo("PENDING");
        });
    }

    @Test
    void concurrentIdenticalSubmissionsCreateOneTask() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<TaskSubmission>> calls = pool.invokeAll(List.of(
                    () -> lifecycle.submit(definition(guid, "echo 1"), RECEPTOR),
                    () -> lifecycle.submit(definition(guid, "echo 1"), RECEPTOR),
                    () -> lifecycle.submit(definition(guid, "echo 1"), RECEPTOR),
                    () -> lifecycle.submit(definition(guid, "echo 1"), RECEPTOR)));
            long created = 0;
            for (Future<TaskSubmission> call : calls) {
                created += call.get().created() ? 1 : 0;
            }
            assertThat(created).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).hasSize(1);
    }

    /**
     * A receptor's group commit hands many submissions to one transaction: each is answered as it would be alone (a
     * guid twice in the batch is, the second time, a resubmission; a different body and a refused admission answer
     * that submission only), and one start request per domain asks for the new tasks' auction.
     */
    @Test
    void aBatchOfSubmissionsIsAnsweredSubmissionBySubmission() {
        String other = "task-" + UUID.randomUUID();
        String refused = "task-" + UUID.randomUUID();
        lifecycle.submit(definition(other, "echo 1"), RECEPTOR);
        TaskAdmission full = domain -> {
            throw new IllegalStateException("domain full");
        };
        TaskAdmission firstOnly = new TaskAdmission() {
            private int admitted;

            @Override
            public void admit(String domain) {
                if (admitted++ > 0) {
                    full.admit(domain);
                }
            }
        };

        List<TaskLifecycle.Submitted> answers = lifecycle.submitAll(List.of(definition(guid, "echo 1"),
                definition(guid, "echo 1"), definition(guid, "echo 2"), definition(other, "echo 2"),
                definition(refused, "echo 1")), RECEPTOR, firstOnly);

        assertThat(answers).hasSize(5);
        assertThat(answers.get(0).submission().created()).isTrue();
        assertThat(answers.get(1).submission().created()).as("the same body again in the batch").isFalse();
        assertThat(answers.get(1).submission().task().modificationTag())
                .isEqualTo(answers.get(0).submission().task().modificationTag());
        assertThat(answers.get(2).refusal()).isInstanceOf(TaskGuidAlreadyExistsException.class);
        assertThat(answers.get(3).refusal()).isInstanceOf(TaskGuidAlreadyExistsException.class);
        assertThat(answers.get(4).refusal()).hasMessage("domain full");
        assertThat(tasks.find(guid)).isPresent();
        assertThat(tasks.find(refused)).isEmpty();
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class))
                .singleElement().extracting(LrpStartRequested::taskGuids).isEqualTo(List.of(guid));
    }

    @Test
    void aTaskRunsToCompletionOnTheCellItWasPlacedOn() {
        TaskSnapshot submitted = lifecycle.submit(definition(guid, "echo 1"), RECEPTOR).task();
        UUID epoch = submitted.modificationTag().epoch();
        assertThat(lifecycle.place(UUID.randomUUID(), Map.of(guid, "cell-a"), AUCTIONEER))
                .containsEntry(guid, Outcome.CHANGED);
        assertThat(records.messages(Topics.AUCTION_RESULTS, "cell-a", TasksPlaced.TYPE, TasksPlaced.class))
                .as("with what it takes of the cell")
                .flatExtracting(TasksPlaced::tasks).contains(new TasksPlaced.TaskPlacement(guid, epoch, 64, 16));

        assertThat(lifecycle.start(Map.of(guid, new TaskStart("cell-b", epoch)), Actor.service("rep")))
                .as("another cell").extractingByKey(guid).extracting(Outcome::kind).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(lifecycle.startToRun(Map.of(guid, new TaskStart("cell-a", epoch)), Actor.service("rep")))
                .as("the start hands the cell what to run").containsEntry(guid, new TaskStarted(Outcome.CHANGED,
                        submitted.definition()));
        assertThat(lifecycle.start(Map.of(guid, new TaskStart("cell-a", epoch)), Actor.service("rep")))
                .as("a redelivered placement").containsEntry(guid, Outcome.NO_OP);
        assertThat(tasks.page(new TaskReads.TaskFilter(null, "cell-a", TaskState.RUNNING), null, 10_000))
                .extracting(TaskSnapshot::taskGuid).contains(guid);

        assertThat(lifecycle.complete(Map.of(guid, TaskCompletion.succeeded("cell-a", "42\n")), Actor.service("rep")))
                .containsEntry(guid, Outcome.CHANGED);
        TaskSnapshot done = tasks.find(guid).orElseThrow();
        assertThat(done.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(done.result()).isEqualTo("42\n");
        assertThat(done.firstCompletedAt()).isNotNull();
        assertThat(done.modificationTag().index()).isEqualTo(3);
        assertThat(records.audit(guid)).extracting(Audit::type, Audit::to, Audit::actorCell).containsExactly(
                org.assertj.core.groups.Tuple.tuple(LifecycleEvent.TASK_CREATED, "PENDING", null),
                org.assertj.core.groups.Tuple.tuple(LifecycleEvent.TASK_CHANGED, "RUNNING", "cell-a"),
                org.assertj.core.groups.Tuple.tuple(LifecycleEvent.TASK_CHANGED, "COMPLETED", "cell-a"));
        LifecycleEvent completed = records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class).get(2);
        assertThat(completed.after().get("result").asString()).isEqualTo("42\n");
        assertThat(completed.before().get("state").asString()).isEqualTo("RUNNING");
    }

    @Test
    void aResultAndAReasonPostgresCannotStoreAreStoredCleaned() {
        String failing = guid + "-failing";
        running(guid, "cell-a");
        running(failing, "cell-a");

        assertThat(lifecycle.complete(Map.of(
                guid, TaskCompletion.succeeded("cell-a", "a\u0000b \uD83D\uDE80 \uDE80"),
                failing, TaskCompletion.failed("cell-a", "failed to start: bad\u0000path")), Actor.service("rep")))
                .containsEntry(guid, Outcome.CHANGED).containsEntry(failing, Outcome.CHANGED);

        TaskSnapshot done = tasks.find(guid).orElseThrow();
        assertThat(done.failed()).as("a result is text: cleaned, not failed").isFalse();
        assertThat(done.result()).isEqualTo("a\uFFFDb \uD83D\uDE80 \uFFFD");
        assertThat(tasks.find(failing).orElseThrow().failureReason()).isEqualTo("failed to start: bad\uFFFDpath");
        assertThat(records.audit(failing)).last().satisfies(a -> assertThat(a.reason())
                .isEqualTo("failed to start: bad\uFFFDpath"));
        assertThat(records.messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class)).last()
                .satisfies(e -> assertThat(e.after().get("result").asString()).isEqualTo(done.result()));
        assertThat(lifecycle.complete(Map.of(guid, TaskCompletion.succeeded("cell-a", "a\u0000b \uD83D\uDE80 \uDE80")),
                Actor.service("rep"))).as("the same report again").containsEntry(guid, Outcome.NO_OP);
    }

    @Test
    void cancellingARunningTaskAsksItsCellToStopItAndAgainIsANoOp() {
        running(guid, "cell-c");
        lifecycle.cancel(guid, RECEPTOR);
        lifecycle.cancel(guid, RECEPTOR);

        TaskSnapshot cancelled = tasks.find(guid).orElseThrow();
        assertThat(cancelled.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(cancelled.failed()).isTrue();
        assertThat(cancelled.failureReason()).isEqualTo("cancelled");
        assertThat(records.messages(Topics.STOP_REQUESTS, "cell-c", TaskCancelRequested.TYPE,
                TaskCancelRequested.class)).filteredOn(c -> guid.equals(c.taskGuid())).singleElement()
                .satisfies(c -> assertThat(c.reason()).isEqualTo("cancelled"));
        assertThat(lifecycle.complete(Map.of(guid, TaskCompletion.succeeded("cell-c", "")), Actor.service("rep")))
                .as("the cell's report after the cancel").extractingByKey(guid).extracting(Outcome::kind)
                .isEqualTo(Outcome.Kind.REJECTED);
        assertThatThrownBy(() -> lifecycle.cancel("no-such-" + guid, RECEPTOR))
                .isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void onlyACompletedTaskCanBeDeletedAndResolvingIsALock() {
        running(guid, "cell-a");
        assertThatThrownBy(() -> lifecycle.delete(guid, RECEPTOR)).isInstanceOf(IllegalTaskTransitionException.class);
        lifecycle.complete(Map.of(guid, TaskCompletion.failed("cell-a", "exited with status 3")), Actor.service("rep"));

        assertThat(lifecycle.resolving(List.of(guid), CONVERGER)).containsEntry(guid, Outcome.CHANGED);
        assertThat(lifecycle.resolving(List.of(guid), CONVERGER)).as("someone else resolves it")
                .extractingByKey(guid).extracting(Outcome::kind).isEqualTo(Outcome.Kind.REJECTED);
        assertThatThrownBy(() -> lifecycle.delete(guid, RECEPTOR)).as("a client while the worker holds it")
                .isInstanceOf(IllegalTaskTransitionException.class);
        assertThat(lifecycle.revertResolving(List.of(guid), "callback failed", CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);

        lifecycle.delete(guid, RECEPTOR);
        assertThat(tasks.find(guid)).isEmpty();
        assertThat(records.audit(guid)).last().satisfies(a -> {
            assertThat(a.type()).isEqualTo(LifecycleEvent.TASK_REMOVED);
            assertThat(a.from()).isEqualTo("COMPLETED");
            assertThat(a.reason()).isEqualTo("resolved by client");
        });
        assertThatThrownBy(() -> lifecycle.delete(guid, RECEPTOR)).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void theConvergersRepairsApplyOnlyToTasksAsItSawThem() {
        lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);
        lifecycle.failPlacement(Map.of(guid, "no cells available"), AUCTIONEER);
        java.time.Instant seen = tasks.summaries().stream().filter(s -> s.taskGuid().equals(guid)).findFirst()
                .orElseThrow().lastTouched();

        clock.advance(java.time.Duration.ofSeconds(31));
        assertThat(lifecycle.retryPlacement(Map.of(guid, seen), "converger: not placed", CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);
        assertThat(lifecycle.retryPlacement(Map.of(guid, seen), "converger: not placed", CONVERGER))
                .as("changed since it was seen").extractingByKey(guid).extracting(Outcome::kind)
                .isEqualTo(Outcome.Kind.REJECTED);
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).hasSize(2);
        assertThat(tasks.summaries()).filteredOn(s -> s.taskGuid().equals(guid)).singleElement()
                .satisfies(s -> assertThat(s.placementAttempts()).isEqualTo(1));

        assertThat(lifecycle.fail(Map.of(guid, "no cells available"), EnumSet.of(TaskState.RUNNING), CONVERGER))
                .extractingByKey(guid).extracting(Outcome::kind).isEqualTo(Outcome.Kind.REJECTED);
        assertThat(lifecycle.fail(Map.of(guid, "no cells available"), EnumSet.of(TaskState.PENDING), CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);
        assertThat(lifecycle.expire(List.of(guid), "converger: not resolved in time", CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);
        assertThat(tasks.find(guid)).isEmpty();
    }

    @Test
    void aCellThatCannotFitItsPlacementSendsTheTaskBackToWaiting() {
        lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);
        lifecycle.place(UUID.randomUUID(), Map.of(guid, "cell-a"), AUCTIONEER);
        assertThat(lifecycle.rejectPlacement("cell-b", Map.of(guid, "insufficient resources: memory"),
                Actor.cell("cell-b"))).extractingByKey(guid).extracting(Outcome::kind)
                .isEqualTo(Outcome.Kind.REJECTED);
        assertThat(lifecycle.rejectPlacement("cell-a", Map.of(guid, "insufficient resources: memory"),
                Actor.cell("cell-a"))).containsEntry(guid, Outcome.CHANGED);
        TaskSnapshot waiting = tasks.find(guid).orElseThrow();
        assertThat(waiting.state()).isEqualTo(TaskState.PENDING);
        assertThat(waiting.placementError()).isEqualTo("insufficient resources: memory");
        assertThat(tasks.placeable(List.of(guid))).extracting(TaskReads.Placeable::taskGuid).containsExactly(guid);
    }

    @Test
    void tasksCountInTheLoadOfTheCellsTheyRunOrArePlacedOn() {
        String cell = "load-" + guid;
        running(guid, cell);
        String placed = guid + "-placed";
        lifecycle.submit(definition(placed, "echo 1"), RECEPTOR);
        lifecycle.place(UUID.randomUUID(), Map.of(placed, cell), AUCTIONEER);

        assertThat(loads.allocations().get(cell)).as("no LRP spreads from tasks")
                .isEqualTo(new CellAllocation(new Resources(2 * 64, 2 * 16, 2), 1, Map.of()));
        assertThat(loads.used(List.of(cell))).containsEntry(cell, new Resources(2 * 64, 2 * 16, 2));
    }

    @Test
    void aCallbacksAttemptsAreKeptInItsTasksRowAndExpiryWaitsUntilItIsSettled() {
        lifecycle.submit(withCallback(guid), RECEPTOR);
        assertThat(tasks.find(guid).orElseThrow().callback().status()).isEqualTo(CallbackStatus.PENDING);
        completed(guid, "cell-a");
        assertThat(lifecycle.expire(List.of(guid), "converger: not resolved in time", CONVERGER))
                .as("its callback is due").extractingByKey(guid).extracting(Outcome::kind)
                .isEqualTo(Outcome.Kind.REJECTED);
        assertThat(due()).contains(guid);

        lifecycle.resolving(List.of(guid), CONVERGER);
        assertThat(lifecycle.callbackAnswered(Map.of(guid, CallbackAnswer.retryAt(503, clock.instant()
                .plusSeconds(1))), CONVERGER)).containsEntry(guid, Outcome.CHANGED);
        TaskSnapshot retried = tasks.find(guid).orElseThrow();
        assertThat(retried.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(retried.callback()).satisfies(c -> {
            assertThat(c.status()).isEqualTo(CallbackStatus.PENDING);
            assertThat(c.attempts()).isEqualTo(1);
            assertThat(c.lastStatus()).isEqualTo(503);
        });
        assertThat(due()).as("not before its next attempt").doesNotContain(guid);
        clock.advance(java.time.Duration.ofSeconds(2));
        assertThat(due()).contains(guid);

        lifecycle.resolving(List.of(guid), CONVERGER);
        lifecycle.callbackAnswered(Map.of(guid, CallbackAnswer.givenUp(null)), CONVERGER);
        assertThat(tasks.find(guid).orElseThrow().callback()).satisfies(c -> {
            assertThat(c.status()).isEqualTo(CallbackStatus.GIVEN_UP);
            assertThat(c.attempts()).isEqualTo(2);
            assertThat(c.lastStatus()).isNull();
        });
        assertThat(due()).doesNotContain(guid);
        assertThat(lifecycle.callbackAnswered(Map.of(guid, CallbackAnswer.delivered(200)), CONVERGER))
                .as("no longer held by a callback").extractingByKey(guid).extracting(Outcome::kind)
                .isEqualTo(Outcome.Kind.REJECTED);
        assertThat(lifecycle.expire(List.of(guid), "converger: not resolved in time", CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);
    }

    @Test
    void aDeliveredCallbackResolvesItsTask() {
        lifecycle.submit(withCallback(guid), RECEPTOR);
        completed(guid, "cell-a");
        lifecycle.resolving(List.of(guid), CONVERGER);

        assertThat(lifecycle.callbackAnswered(Map.of(guid, CallbackAnswer.delivered(204)), CONVERGER))
                .containsEntry(guid, Outcome.CHANGED);

        assertThat(tasks.find(guid)).isEmpty();
        assertThat(records.audit(guid)).last().satisfies(a -> {
            assertThat(a.type()).isEqualTo(LifecycleEvent.TASK_REMOVED);
            assertThat(a.reason()).isEqualTo("callback delivered (status 204)");
        });
    }

    @Test
    void aRetriedSubmissionAfterItsTaskWasDeletedRunsNothingAgain() {
        lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);
        completed(guid, "cell-a");
        lifecycle.delete(guid, RECEPTOR);

        TaskSubmission again = lifecycle.submit(definition(guid, "echo 1"), RECEPTOR);

        assertThat(again.created()).isFalse();
        assertThat(tasks.find(guid)).as("not created again").isEmpty();
        assertThat(records.messages(Topics.START_REQUESTS, guid, LrpStartRequested.class)).as("one run").hasSize(1);
        assertThat(again.tombstone()).satisfies(t -> {
            assertThat(t.domain()).isEqualTo("d1");
            assertThat(t.digest()).isEqualTo(definition(guid, "echo 1").digest());
        });
        assertThatThrownBy(() -> lifecycle.submit(definition(guid, "echo 2"), RECEPTOR))
                .isInstanceOf(TaskGuidAlreadyExistsException.class).hasMessageContaining("deleted at");
    }

    @Test
    void aDeletedTasksGuidIsFreeAgainOnceItsTombstoneWindowHasPassed() {
        // a one-second window, so that the test's clock (which stamps the relayed events) need not jump a day
        TaskLifecycle briefMemory = TaskLifecycle.create(new TransactionTemplate(new DataSourceTransactionManager(
                jdbc.getDataSource())), jdbc, outbox, clock, UUID::randomUUID, 3, java.time.Duration.ofSeconds(1));
        briefMemory.submit(definition(guid, "echo 1"), RECEPTOR);
        completed(guid, "cell-a");
        briefMemory.delete(guid, RECEPTOR);
        assertThat(briefMemory.submit(definition(guid, "echo 1"), RECEPTOR).wasDeleted()).isTrue();
        clock.advance(java.time.Duration.ofMillis(1_001));

        assertThat(briefMemory.submit(definition(guid, "echo 2"), RECEPTOR).created()).isTrue();
        completed(guid, "cell-a");
        briefMemory.delete(guid, RECEPTOR);
        assertThat(briefMemory.submit(definition(guid, "echo 2"), RECEPTOR).wasDeleted()).as("the newer tombstone")
                .isTrue();

        briefMemory.pruneTombstones(clock.instant().minusSeconds(1), 1_000);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM task_tombstones WHERE task_guid = ?", Integer.class,
                guid)).as("still in its window").isEqualTo(1);
        assertThat(briefMemory.pruneTombstones(clock.instant().plusSeconds(1), 1_000)).isPositive();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM task_tombstones WHERE task_guid = ?", Integer.class,
                guid)).isZero();
    }

    private List<String> due() {
        return tasks.callbacksDue(clock.instant(), 1_000).stream().map(TaskSnapshot::taskGuid).toList();
    }

    private void completed(String taskGuid, String cell) {
        UUID epoch = tasks.find(taskGuid).orElseThrow().modificationTag().epoch();
        lifecycle.place(UUID.randomUUID(), Map.of(taskGuid, cell), AUCTIONEER);
        lifecycle.start(Map.of(taskGuid, new TaskStart(cell, epoch)), Actor.cell(cell));
        lifecycle.complete(Map.of(taskGuid, TaskCompletion.succeeded(cell, "")), Actor.cell(cell));
    }

    private static TaskDefinition withCallback(String guid) {
        return new TaskDefinition(guid, "d1", "preloaded:host",
                new Action(new RunAction("true", List.of(), null, List.of(), null)), List.of(), 64, 16, 0, 0,
                List.of(), null, "http://callbacks.example.com/done", null, null, null);
    }

    private void running(String taskGuid, String cell) {
        UUID epoch = lifecycle.submit(definition(taskGuid, "sleep 60"), RECEPTOR).task().modificationTag().epoch();
        lifecycle.place(UUID.randomUUID(), Map.of(taskGuid, cell), AUCTIONEER);
        assertThat(lifecycle.start(Map.of(taskGuid, new TaskStart(cell, epoch)), Actor.service("rep")))
                .containsEntry(taskGuid, Outcome.CHANGED);
    }

    static TaskDefinition definition(String guid, String script) {
        return new TaskDefinition(guid, "d1", "preloaded:host",
                new Action(new RunAction("sh", List.of("-c", script), null, List.of(), null)), List.of(), 64, 16, 0, 0,
                List.of(), "out.txt", null, null, null, null);
    }
}
