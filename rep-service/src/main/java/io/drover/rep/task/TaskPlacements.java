package io.drover.rep.task;

import io.drover.model.cell.Resources;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.planted.PlantedBug;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskSnapshot;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskStarted;
import io.drover.model.task.TaskState;
import io.drover.rep.cell.CellCapacity;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.Executor;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a cell's task placements into running tasks: turn away what does not fit what the cell has left (the
 * auctioneer's wording), start the rest in one write, and run exactly those whose start this cell made, from the task
 * the start read: a stale or redelivered placement's start is a no-op or refused, which is what keeps a task to one run.
 * A placement says what the task takes of the cell, so nothing is read before the start; one written before it said so
 * (issue 37) has its task read first, and is dropped when that task is gone, no longer PENDING or of another epoch.
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
     * Starts what it can; returns the tasks it ran, by instance guid. {@code failedToRun} gets each task the executor
     * refused after its start, which must then be completed as failed.
     */
    Map<String, TaskDefinition> handle(Collection<TasksPlaced.TaskPlacement> placements, boolean evacuating,
            Consumer<Failure> failedToRun) {
        Map<String, TasksPlaced.TaskPlacement> byGuid = new LinkedHashMap<>();
        placements.forEach(p -> byGuid.put(p.taskGuid(), p));
        if (evacuating) {
            Map<String, String> errors = new LinkedHashMap<>();
            byGuid.keySet().forEach(g -> errors.put(g, "cell is evacuating"));
            writes.rejectTasks(cellId, errors);
            return Map.of();
        }
        Map<String, String> rejected = new LinkedHashMap<>();
        Map<String, TasksPlaced.TaskPlacement> admitted = new LinkedHashMap<>();
        Resources left = capacity.available();
        for (TasksPlaced.TaskPlacement p : withNeeds(byGuid).values()) {
            Resources need = TaskContainers.need(p);
            String lacking = left.lacking(need);
            if (lacking.isEmpty()) {
                left = left.minus(need);
                admitted.put(p.taskGuid(), p);
            } else {
                rejected.put(p.taskGuid(), "insufficient resources: " + lacking);
            }
        }
        if (!rejected.isEmpty()) {
            writes.rejectTasks(cellId, rejected);
            rejected.forEach((guid, why) -> log.info("reject-task task_guid={} cell={} reason=\"{}\"", guid, cellId,
                    why));
        }
        return admitted.isEmpty() ? Map.of() : startAndRun(admitted, failedToRun);
    }

    /**
     * The placements with what their tasks take: as they came, or, for those written before placements said so, from
     * the task read now (a task gone, no longer PENDING or of another epoch is dropped, as it always was).
     */
    private Map<String, TasksPlaced.TaskPlacement> withNeeds(Map<String, TasksPlaced.TaskPlacement> byGuid) {
        List<String> unsaid = byGuid.values().stream().filter(p -> !p.hasNeed()).map(TasksPlaced.TaskPlacement::taskGuid)
                .toList();
        if (unsaid.isEmpty()) {
            return byGuid;
        }
        Map<String, TaskSnapshot> current = reads.find(unsaid);
        Map<String, TasksPlaced.TaskPlacement> placements = new LinkedHashMap<>();
        byGuid.forEach((guid, p) -> {
            TaskSnapshot task = current.get(guid);
            if (p.hasNeed()) {
                placements.put(guid, p);
            } else if (task != null && (PlantedBug.TASK_AT_MOST_ONCE.planted() || task.state() == TaskState.PENDING
                    && task.modificationTag().epoch().equals(p.epoch()))) {
                placements.put(guid, new TasksPlaced.TaskPlacement(guid, p.epoch(), task.definition().memoryMb(),
                        task.definition().diskMb()));
            }
        });
        return placements;
    }

    private Map<String, TaskDefinition> startAndRun(Map<String, TasksPlaced.TaskPlacement> admitted,
            Consumer<Failure> failedToRun) {
        Map<String, TaskStart> starts = new LinkedHashMap<>();
        admitted.values().forEach(p -> {
            capacity.reserve(TaskContainers.instanceGuid(p.epoch()), TaskContainers.need(p));
            starts.put(p.taskGuid(), new TaskStart(cellId, p.epoch()));
        });
        Map<String, TaskStarted> started;
        try {
            started = writes.startTasks(starts);
        } catch (RuntimeException e) {
            admitted.values().forEach(p -> capacity.release(TaskContainers.instanceGuid(p.epoch())));
            throw e;
        }
        Map<String, TaskDefinition> ran = new LinkedHashMap<>();
        for (TasksPlaced.TaskPlacement p : admitted.values()) {
            TaskStarted start = started.get(p.taskGuid());
            String instanceGuid = TaskContainers.instanceGuid(p.epoch());
            if (!start.made() && !(PlantedBug.TASK_AT_MOST_ONCE.planted() && start.definition() != null)) {
                // already started (a redelivered placement) or overtaken: never run a task this start did not make
                capacity.release(instanceGuid);
                log.info("start-task-skipped task_guid={} cell={} outcome={} message=\"{}\"", p.taskGuid(), cellId,
                        start.outcome().kind(), start.outcome().message());
                continue;
            }
            ContainerSpec spec = TaskContainers.spec(start.definition(), p.epoch());
            try {
                executor.run(spec);
                ran.put(instanceGuid, start.definition());
                log.info("start-task task_guid={} cell={} instance_guid={}", p.taskGuid(), cellId, instanceGuid);
            } catch (RuntimeException e) {
                // started but not running: it must fail now, nothing else would ever notice
                capacity.release(instanceGuid);
                failedToRun.accept(new Failure(p.taskGuid(), "failed to start: " + e.getMessage()));
            }
        }
        return ran;
    }

    /** A task that was started but could not be run. */
    record Failure(String taskGuid, String reason) {
    }
}
