package io.drover.rep.task;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.Outcome;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.planted.PlantedBug;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskState;
import io.drover.rep.cell.CellCapacity;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.Executor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a cell's task placements into running tasks: drop the stale ones (gone, no longer PENDING, another task of the
 * same guid), turn away what does not fit what the cell has left (the auctioneer's wording), start the rest in one
 * write, and run exactly those whose start this cell made: a redelivered placement's start is a no-op or refused,
 * which is what keeps a task to one run.
 */
final class TaskPlacements {

    private static final Logger log = LoggerFactory.getLogger(TaskPlacements.class);

    private final String cellId;
    private final Executor executor;
    private final TaskReads reads;
    private final TaskWrites writes;
    private final CellCapacity capacity;

    TaskPlacements(String cellId, Executor executor, TaskReads reads, TaskWrites writes, CellCapacity capacity) {
        this.cellId = cellId;
        this.executor = executor;
        this.reads = reads;
        this.writes = writes;
        this.capacity = capacity;
    }

    /**
     * Starts what it can; returns the tasks it ran. {@code failedToRun} gets each task the executor refused after its
     * start, which must then be completed as failed.
     */
    List<TaskSnapshot> handle(Collection<TasksPlaced.TaskPlacement> placements, boolean evacuating,
            Consumer<Failure> failedToRun) {
        Map<String, TasksPlaced.TaskPlacement> byGuid = new LinkedHashMap<>();
        placements.forEach(p -> byGuid.put(p.taskGuid(), p));
        if (evacuating) {
            Map<String, String> errors = new LinkedHashMap<>();
            byGuid.keySet().forEach(g -> errors.put(g, "cell is evacuating"));
            writes.rejectTasks(cellId, errors);
            return List.of();
        }
        Map<String, TaskSnapshot> current = reads.find(byGuid.keySet());
        Map<String, String> rejected = new LinkedHashMap<>();
        Map<String, TaskSnapshot> admitted = new LinkedHashMap<>();
        Resources left = capacity.available();
        for (TasksPlaced.TaskPlacement p : byGuid.values()) {
            TaskSnapshot task = current.get(p.taskGuid());
            boolean atMostOnce = !PlantedBug.TASK_AT_MOST_ONCE.planted();
            if (task == null || atMostOnce && (task.state() != TaskState.PENDING
                    || !task.modificationTag().epoch().equals(p.epoch()))) {
                continue;
            }
            Resources need = TaskContainers.need(task.definition());
            String lacking = left.lacking(need);
            if (lacking.isEmpty()) {
                left = left.minus(need);
                admitted.put(task.taskGuid(), task);
            } else {
                rejected.put(task.taskGuid(), "insufficient resources: " + lacking);
            }
        }
        if (!rejected.isEmpty()) {
            writes.rejectTasks(cellId, rejected);
            rejected.forEach((guid, why) -> log.info("reject-task task_guid={} cell={} reason=\"{}\"", guid, cellId,
                    why));
        }
        return admitted.isEmpty() ? List.of() : startAndRun(admitted, failedToRun);
    }

    private List<TaskSnapshot> startAndRun(Map<String, TaskSnapshot> admitted, Consumer<Failure> failedToRun) {
        Map<String, TaskStart> starts = new LinkedHashMap<>();
        admitted.values().forEach(t -> {
            capacity.reserve(TaskContainers.instanceGuid(t), TaskContainers.need(t.definition()));
            starts.put(t.taskGuid(), new TaskStart(cellId, t.modificationTag().epoch()));
        });
        Map<String, Outcome> outcomes;
        try {
            outcomes = writes.startTasks(starts);
        } catch (RuntimeException e) {
            admitted.values().forEach(t -> capacity.release(TaskContainers.instanceGuid(t)));
            throw e;
        }
        List<TaskSnapshot> ran = new ArrayList<>();
        for (TaskSnapshot task : admitted.values()) {
            Outcome outcome = outcomes.get(task.taskGuid());
            if (outcome.kind() != Outcome.Kind.CHANGED && !PlantedBug.TASK_AT_MOST_ONCE.planted()) {
                // already started (a redelivered placement) or overtaken: never run a task this start did not make
                capacity.release(TaskContainers.instanceGuid(task));
                log.info("start-task-skipped task_guid={} cell={} outcome={} message=\"{}\"", task.taskGuid(), cellId,
                        outcome.kind(), outcome.message());
                continue;
            }
            ContainerSpec spec = TaskContainers.spec(task);
            try {
                executor.run(spec);
                ran.add(task);
                log.info("start-task task_guid={} cell={} instance_guid={}", task.taskGuid(), cellId,
                        spec.instanceGuid());
            } catch (RuntimeException e) {
                // started but not running: it must fail now, nothing else would ever notice
                capacity.release(spec.instanceGuid());
                failedToRun.accept(new Failure(task.taskGuid(), "failed to start: " + e.getMessage()));
            }
        }
        return ran;
    }

    /** A task that was started but could not be run. */
    record Failure(String taskGuid, String reason) {
    }
}
