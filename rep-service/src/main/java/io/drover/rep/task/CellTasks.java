package io.drover.rep.task;

import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskReads;
import io.drover.rep.cell.CellCapacity;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerListener;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.RunOnce;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of one cell, handled in the cell agent's serial passes: placements (start and run), cancels (stop the
 * process), containers that ended (report how, with the result file), and a sync against the database. Tasks run in an
 * executor of their own, so they never mix with the cell's instances.
 *
 * <p>Tasks do not survive a restart of the rep: a task container left by the previous run is killed and its task
 * completed failed "cell restarted", as is a task the database says runs here but that has no container. A process
 * the rep is not the parent of cannot report its exit status, and a task's outcome is its exit status.
 */
public final class CellTasks implements ContainerListener {

    private static final Logger log = LoggerFactory.getLogger(CellTasks.class);
    static final String EVACUATED = "cell evacuated before completion";

    private final String cellId;
    private final Executor executor;
    private final TaskReads reads;
    private final TaskWrites writes;
    private final CellCapacity capacity;
    private final Runnable wake;
    private final Duration stopGrace;
    private final TaskPlacements placements;
    private final Queue<Placed> placed = new ConcurrentLinkedQueue<>();
    private final Queue<Cancel> cancels = new ConcurrentLinkedQueue<>();
    private final Set<String> changed = ConcurrentHashMap.newKeySet();
    private final Map<String, TaskDefinition> running = new ConcurrentHashMap<>();
    private final Map<String, TaskCompletion> failures = new LinkedHashMap<>();
    /** Containers this cell stops for a reason of its own, which becomes their task's failure once they are gone. */
    private final Map<String, String> interrupted = new HashMap<>();
    private final Set<String> stopping = new HashSet<>();
    private final Clock clock;
    private boolean synced;
    /** A start of this cell may have committed unanswered, or one is waiting out its grace: the sync must read. */
    private boolean unsure;

    public CellTasks(String cellId, Executor executor, TaskReads reads, TaskWrites writes, CellCapacity capacity,
            Runnable wake, Duration stopGrace, Clock clock) {
        this.cellId = cellId;
        this.clock = clock;
        this.executor = executor;
        this.reads = reads;
        this.writes = writes;
        this.capacity = capacity;
        this.wake = wake;
        this.stopGrace = stopGrace;
        this.placements = new TaskPlacements(cellId, executor, reads, writes, capacity);
        executor.addListener(this);
    }

    /** What a previous run of the rep left is killed: its tasks fail "cell restarted" once their processes are gone. */
    public void start() {
        for (Container c : executor.adopt()) {
            // a paused agent resuming gets back the containers it runs itself: those are not left-overs
            if (!running.containsKey(c.instanceGuid())
                    && interrupted.putIfAbsent(c.instanceGuid(), TaskSyncPlan.CELL_RESTARTED) == null) {
                log.info("task-container-left-by-restart task_guid={} cell={} instance_guid={}",
                        TaskContainers.taskGuid(c), cellId, c.instanceGuid());
                stopping.add(c.instanceGuid());
                executor.stop(c.instanceGuid(), Duration.ZERO);
            }
        }
    }

    /**
     * Queues placements; {@code eachDone} runs once for each of them, once a pass has handled it (started it, or
     * failed it on this cell).
     */
    public void placed(List<TasksPlaced.TaskPlacement> tasks, Runnable eachDone) {
        tasks.forEach(t -> placed.add(new Placed(t, eachDone)));
        wake.run();
    }

    /** Queues a cancel; {@code done} runs once a pass has stopped the task's process (if it runs here). */
    public void cancelRequested(String taskGuid, Runnable done) {
        cancels.add(new Cancel(taskGuid, done));
        wake.run();
    }

    @Override
    public void onEvent(ContainerEvent event) {
        if (RunOnce.ended(event.container())) {
            changed.add(event.container().instanceGuid());
            wake.run();
        }
    }

    /** One pass: what ended, cancels, then new placements. Work that fails stays queued for the next pass. */
    public void pass(boolean evacuating) {
        reportEnded();
        handleCancels();
        List<Placed> batch = new ArrayList<>();
        Placed p;
        while ((p = placed.poll()) != null) {
            batch.add(p);
        }
        if (!batch.isEmpty()) {
            try {
                running.putAll(placements.handle(batch.stream().map(Placed::placement).toList(), evacuating,
                        f -> failures.put(f.taskGuid(), TaskCompletion.failed(cellId, f.reason()))));
            } catch (RuntimeException e) {
                // a start may have committed with its answer lost: the placement is retried (and skipped, the task
                // being RUNNING already), so only the sync can find a task this cell started and never ran
                unsure = true;
                placed.addAll(batch);
                throw e;
            }
        }
        writeFailures();
        batch.forEach(handled -> handled.done().run());
    }

    /**
     * Compares the containers with the database and repairs: see {@link TaskSyncPlan}. Once a drain's deadline has
     * passed, the tasks still running are stopped and fail "cell evacuated before completion".
     */
    public void sync(boolean drainDeadlinePassed) {
        List<Container> containers = executor.containers();
        if (synced && containers.isEmpty() && !unsure) {
            // nothing runs here, and every start this cell made was answered and ran or was failed: a thousand idle
            // cells of one process need not ask the database every sync
            return;
        }
        if (drainDeadlinePassed) {
            containers.stream().filter(c -> !RunOnce.ended(c)).forEach(c -> {
                interrupted.putIfAbsent(c.instanceGuid(), EVACUATED);
                stop(c, EVACUATED);
            });
        }
        containers.stream().filter(RunOnce::ended).forEach(c -> changed.add(c.instanceGuid()));
        List<TaskReads.TaskSummary> tasks = reads.ofCell(cellId,
                containers.stream().map(TaskContainers::taskGuid).toList());
        List<TaskSyncPlan.Action> actions = TaskSyncPlan.plan(cellId, containers, tasks, stopping, !synced,
                clock.instant());
        for (TaskSyncPlan.Action action : actions) {
            if (action instanceof TaskSyncPlan.Fail f) {
                log.info("fail-task task_guid={} cell={} reason=\"{}\"", f.taskGuid(), cellId, f.reason());
                failures.put(f.taskGuid(), TaskCompletion.failed(cellId, f.reason()));
            } else if (action instanceof TaskSyncPlan.Stop s) {
                stop(s.container(), s.reason());
            }
        }
        writeFailures();
        reportEnded();
        synced = true;
        unsure = actions.stream().anyMatch(TaskSyncPlan.Wait.class::isInstance);
    }

    /** Task containers still held (running, stopping, or ended and not yet reported). */
    public int containers() {
        return executor.containers().size();
    }

    public Executor executor() {
        return executor;
    }

    public void close() {
        executor.close();
    }

    private void handleCancels() {
        Cancel cancel;
        while ((cancel = cancels.poll()) != null) {
            String taskGuid = cancel.taskGuid();
            executor.containers().stream().filter(c -> TaskContainers.taskGuid(c).equals(taskGuid))
                    .filter(c -> !RunOnce.ended(c)).forEach(c -> stop(c, "cancelled"));
            cancel.done().run();
        }
    }

    /** A task placement queued on the cell, with what to run once it is handled. */
    private record Placed(TasksPlaced.TaskPlacement placement, Runnable done) {
    }

    /** A task cancel queued on the cell, with what to run once it is handled. */
    private record Cancel(String taskGuid, Runnable done) {
    }

    private void stop(Container c, String reason) {
        if (stopping.add(c.instanceGuid())) {
            log.info("stop-task task_guid={} cell={} instance_guid={} reason=\"{}\"", TaskContainers.taskGuid(c),
                    cellId, c.instanceGuid(), reason);
            executor.stop(c.instanceGuid(), stopGrace);
        }
    }

    /** Containers whose action ended: each reports its task's completion, then is forgotten. */
    private void reportEnded() {
        List<String> guids = new ArrayList<>(changed);
        changed.removeAll(guids);
        Map<String, TaskCompletion> completions = new LinkedHashMap<>();
        List<Container> ended = new ArrayList<>();
        for (String guid : guids) {
            executor.container(guid).filter(RunOnce::ended).ifPresent(c -> {
                ended.add(c);
                completion(c).ifPresent(done -> completions.put(TaskContainers.taskGuid(c), done));
            });
        }
        try {
            Map<String, Outcome> outcomes = completions.isEmpty() ? Map.of() : writes.completeTasks(completions);
            outcomes.forEach((task, outcome) -> log.info("complete-task task_guid={} cell={} failed={} reason=\"{}\" "
                    + "outcome={}", task, cellId, completions.get(task).failed(),
                    completions.get(task).failureReason(), outcome.kind()));
        } catch (RuntimeException e) {
            ended.forEach(c -> changed.add(c.instanceGuid()));
            throw e;
        }
        ended.forEach(this::forget);
    }

    /** How a container's end completes its task; empty when there is nothing to report (it was stopped on purpose). */
    private Optional<TaskCompletion> completion(Container c) {
        if (interrupted.containsKey(c.instanceGuid())) {
            return Optional.of(TaskCompletion.failed(cellId, interrupted.get(c.instanceGuid())));
        }
        if (c.state() == ContainerState.STOPPED) {
            return Optional.empty();
        }
        if (!RunOnce.succeeded(c)) {
            return Optional.of(TaskCompletion.failed(cellId, c.reason() == null ? "failed" : c.reason()));
        }
        TaskDefinition task = running.get(c.instanceGuid());
        String resultFile = task == null ? null : task.resultFile();
        if (resultFile == null || resultFile.isEmpty()) {
            return Optional.of(TaskCompletion.succeeded(cellId, ""));
        }
        try {
            return Optional.of(executor.readFile(c.instanceGuid(), resultFile, RunOnce.MAX_RESULT_BYTES)
                    .map(result -> TaskCompletion.succeeded(cellId, result))
                    .orElse(TaskCompletion.failed(cellId, "result_file " + resultFile + " not found")));
        } catch (RuntimeException e) {
            return Optional.of(TaskCompletion.failed(cellId, "cannot read result_file " + resultFile + ": "
                    + e.getMessage()));
        }
    }

    private void forget(Container c) {
        executor.forget(c.instanceGuid());
        capacity.release(c.instanceGuid());
        running.remove(c.instanceGuid());
        interrupted.remove(c.instanceGuid());
        stopping.remove(c.instanceGuid());
    }

    private void writeFailures() {
        if (failures.isEmpty()) {
            return;
        }
        Map<String, TaskCompletion> batch = new LinkedHashMap<>(failures);
        writes.completeTasks(batch);
        batch.keySet().forEach(failures::remove);
    }
}
