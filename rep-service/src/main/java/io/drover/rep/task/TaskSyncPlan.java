package io.drover.rep.task;

import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.task.TaskState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.RunOnce;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cell's task sync as one pure function: its task containers and what the database says of their tasks (and of every
 * task RUNNING here) in, repairs out. A task RUNNING here without a container failed with the cell (the rep restarted,
 * or its process vanished): it is completed failed. A live container whose task is no longer RUNNING here (cancelled,
 * failed by the converger, deleted) is stopped. Containers in {@code busy} (a stop in flight) are left alone.
 */
final class TaskSyncPlan {

    static final String CELL_RESTARTED = "cell restarted";
    static final String CONTAINER_LOST = "task process lost";

    private TaskSyncPlan() {
    }

    /** A repair: complete a task as failed, or stop a container. */
    sealed interface Action permits Fail, Stop {
    }

    record Fail(String taskGuid, String reason) implements Action {
    }

    record Stop(Container container, String reason) implements Action {
    }

    /** {@code firstSync}: the cell has just started, so a missing container means the cell restarted. */
    static List<Action> plan(String cellId, Collection<Container> containers, Collection<TaskSummary> tasks,
            Set<String> busy, boolean firstSync) {
        Map<String, Container> byTask = new HashMap<>();
        containers.forEach(c -> byTask.put(TaskContainers.taskGuid(c), c));
        Map<String, TaskSummary> byGuid = new HashMap<>();
        tasks.forEach(t -> byGuid.put(t.taskGuid(), t));
        List<Action> actions = new ArrayList<>();
        for (TaskSummary t : tasks) {
            if (t.state() == TaskState.RUNNING && cellId.equals(t.cellId()) && !byTask.containsKey(t.taskGuid())) {
                actions.add(new Fail(t.taskGuid(), firstSync ? CELL_RESTARTED : CONTAINER_LOST));
            }
        }
        for (Container c : containers) {
            TaskSummary t = byGuid.get(TaskContainers.taskGuid(c));
            boolean ours = t != null && t.state() == TaskState.RUNNING && cellId.equals(t.cellId())
                    && t.epoch().toString().equals(c.instanceGuid());
            if (!ours && !RunOnce.ended(c) && !busy.contains(c.instanceGuid())) {
                actions.add(new Stop(c, t == null ? "task is gone" : "task is " + t.state()
                        + (t.cellId() == null || cellId.equals(t.cellId()) ? "" : " on " + t.cellId())));
            }
        }
        return actions;
    }
}
