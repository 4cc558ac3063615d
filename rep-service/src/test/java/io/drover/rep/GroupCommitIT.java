package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskState;
import io.drover.rep.writes.GroupCommit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * One item the database refuses must not fail the other cells' writes that share its transaction, nor wedge its own
 * cell. The poison is a test trigger that refuses a successful completion of a task whose guid starts with
 * {@link #POISONED}, as PostgreSQL refuses a value it cannot store (with the same SQLState, 22021): it stands for any
 * such value that no cleaning foresaw.
 */
class GroupCommitIT extends SingleCellSupport {

    static final String POISONED = "poisoned-" + UUID.randomUUID().toString().substring(0, 8);

    @Autowired
    TaskLifecycle taskLifecycle;
    @Autowired
    TaskReads taskReads;
    @Autowired
    DataSource dataSource;

    Tasks tasks;

    @BeforeEach
    void poison() {
        tasks = new Tasks(taskLifecycle, taskReads);
        jdbc.execute("""
                CREATE OR REPLACE FUNCTION refuse_poisoned_completion() RETURNS trigger AS $$
                BEGIN
                    IF NEW.state = 'COMPLETED' AND NOT NEW.failed AND NEW.task_guid LIKE '%s%%' THEN
                        RAISE EXCEPTION 'refused by the test: a value PostgreSQL cannot store'
                            USING ERRCODE = 'character_not_in_repertoire';
                    END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql""".formatted(POISONED));
        jdbc.execute("DROP TRIGGER IF EXISTS refuse_poisoned_completion ON tasks");
        jdbc.execute("CREATE TRIGGER refuse_poisoned_completion BEFORE UPDATE ON tasks FOR EACH ROW "
                + "EXECUTE FUNCTION refuse_poisoned_completion()");
    }

    @AfterEach
    void cure() {
        jdbc.execute("DROP TRIGGER IF EXISTS refuse_poisoned_completion ON tasks");
    }

    @Test
    void aPoisonedCompletionFailsAloneAndTheOtherCellsCompletionsInItsBatchCommit() throws Exception {
        String blocker = running("blocker", "cell-x");
        String good = running("good", "cell-a");
        String alsoGood = running("also-good", "cell-b");
        String poisoned = running(POISONED, "cell-p");
        ExecutorService cells = Executors.newFixedThreadPool(4);
        try (GroupCommit commits = new GroupCommit(actual, taskLifecycle);
                Connection lock = dataSource.getConnection()) {
            // holds the writer in a first transaction, so that the three cells' reports queue up and share the next
            lock.setAutoCommit(false);
            try (PreparedStatement ps = lock.prepareStatement("SELECT 1 FROM tasks WHERE task_guid = ? FOR UPDATE")) {
                ps.setString(1, blocker);
                ps.executeQuery().close();
            }
            Future<Map<String, Outcome>> first = cells.submit(() -> commits.completeTasks(Map.of(blocker,
                    TaskCompletion.succeeded("cell-x", ""))));
            await().atMost(Duration.ofSeconds(20)).until(this::writerWaitsForTheLock);
            List<Thread> reporters = new ArrayList<>();
            List<CompletableFuture<Map<String, Outcome>>> reports = List.of(
                    report(commits, good, TaskCompletion.succeeded("cell-a", "a"), reporters),
                    report(commits, alsoGood, TaskCompletion.failed("cell-b", "exited with status 2"), reporters),
                    report(commits, poisoned, TaskCompletion.succeeded("cell-p", "p"), reporters));
            await().atMost(Duration.ofSeconds(20)).until(() -> reporters.size() == 3
                    && reporters.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
            lock.rollback();

            assertThat(first.get()).containsEntry(blocker, Outcome.CHANGED);
            assertThat(reports.get(0).get()).containsEntry(good, Outcome.CHANGED);
            assertThat(reports.get(1).get()).containsEntry(alsoGood, Outcome.CHANGED);
            assertThat(reports.get(2).get()).containsOnlyKeys(poisoned);
        } finally {
            cells.shutdownNow();
        }
        assertThat(tasks.find(good).result()).isEqualTo("a");
        assertThat(tasks.find(alsoGood).failureReason()).isEqualTo("exited with status 2");
        TaskSnapshot refused = tasks.find(poisoned);
        assertThat(refused.state()).isEqualTo(TaskState.COMPLETED);
        assertThat(refused.failed()).isTrue();
        assertThat(refused.failureReason()).startsWith("result could not be stored: ");
    }

    @Test
    void aPoisonedCompletionAmongOneCellsReportsFailsAlone() {
        List<String> guids = List.of(running("one", "cell-a"), running("two", "cell-a"), running(POISONED, "cell-a"),
                running("four", "cell-a"), running("five", "cell-a"));
        Map<String, TaskCompletion> report = new java.util.LinkedHashMap<>();
        guids.forEach(guid -> report.put(guid, TaskCompletion.succeeded("cell-a", "done")));

        Map<String, Outcome> outcomes;
        try (GroupCommit commits = new GroupCommit(actual, taskLifecycle)) {
            outcomes = commits.completeTasks(report);
        }

        assertThat(outcomes).containsOnlyKeys(guids).allSatisfy((guid, outcome) -> assertThat(outcome)
                .isEqualTo(Outcome.CHANGED));
        assertThat(guids).allSatisfy(guid -> assertThat(tasks.find(guid).state()).isEqualTo(TaskState.COMPLETED));
        assertThat(guids).filteredOn(guid -> !guid.startsWith(POISONED)).allSatisfy(guid -> {
            assertThat(tasks.find(guid).failed()).isFalse();
            assertThat(tasks.find(guid).result()).isEqualTo("done");
        });
        assertThat(tasks.find(guids.get(2)).failureReason()).isEqualTo("result could not be stored: refused by the "
                + "test: a value PostgreSQL cannot store");
    }

    @Test
    void theCellWhoseCompletionWasRefusedGoesOnToStartAndCompleteLaterTasks() {
        String poisoned = tasks.submit(POISONED, Tasks.run("work"), "out.txt");
        tasks.place(poisoned, CELL);

        TaskSnapshot refused = awaitCompleted(poisoned);
        assertThat(refused.failed()).isTrue();
        assertThat(refused.failureReason()).startsWith("result could not be stored: ");

        String later = tasks.submit("later", Tasks.run("work"), "out.txt");
        tasks.place(later, CELL);
        TaskSnapshot done = awaitCompleted(later);
        assertThat(done.failed()).isFalse();
        assertThat(done.cellId()).isEqualTo(CELL);
    }

    /** A cell's worker hands its report over and waits, as {@code CellTasks} does. */
    private static CompletableFuture<Map<String, Outcome>> report(GroupCommit commits, String guid,
            TaskCompletion completion, List<Thread> reporters) {
        CompletableFuture<Map<String, Outcome>> outcome = new CompletableFuture<>();
        Thread reporter = new Thread(() -> {
            try {
                outcome.complete(commits.completeTasks(Map.of(guid, completion)));
            } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
            }
        }, "cell-of-" + guid);
        reporters.add(reporter);
        reporter.start();
        return outcome;
    }

    private boolean writerWaitsForTheLock() {
        return jdbc.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                + "AND query LIKE '%UPDATE tasks t SET%' AND pid <> pg_backend_pid()", Integer.class) > 0;
    }

    /** A task started on {@code cell} through the lifecycle, as an auction and that cell would. */
    private String running(String prefix, String cell) {
        String guid = tasks.submit(prefix, Tasks.run("work"), null);
        UUID epoch = tasks.find(guid).modificationTag().epoch();
        tasks.place(guid, cell);
        assertThat(taskLifecycle.start(Map.of(guid, new TaskStart(cell, epoch)), Actor.service("rep")))
                .containsEntry(guid, Outcome.CHANGED);
        return guid;
    }

    private TaskSnapshot awaitCompleted(String guid) {
        await().atMost(Duration.ofSeconds(30)).until(() -> tasks.find(guid).state() == TaskState.COMPLETED);
        return tasks.find(guid);
    }
}
