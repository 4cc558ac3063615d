package io.drover.rep.task;

import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.task.TaskState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.RunOnce;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cell's task sync as one pure function: its task containers and what the database says of their tasks (and of every
 * task RUNNING here) in, repairs out, as the instances' sync does for their records. A task RUNNING here without a
 * container failed with the cell: the rep restarted, or this cell's start of it committed while its answer was lost
 * (so the cell never ran it), or its process vanished. It is completed failed, once its start is older than
 * {@link #START_GRACE} (a start whose commit is still on its way is not judged). A live container whose task is no
 * longer RUNNING here (cancelled, failed by the converger, deleted) is stopped. Containers in {@code busy} (a stop in
 * flight) are left alone.
 */
final class TaskSyncPlan {

    static final String CELL_RESTARTED = "cell restarted";
    static final String NO_PROCESS = "the cell has no process for the task";

    /** How long after its start a task RUNNING here may still lack its container: a start in flight. */
    static final Duration START_GRACE = Duration.ofSeconds(30);

    private TaskSyncPlan() {
    }

    /** A repair (complete a task as failed, stop a container), or a task to look at again at the next sync. */
    sealed interface Action permits Fail, Stop, Wait {
    }

    record Fail(String taskGuid, String reason) implements Action {
    }

    record Stop(Container container, String reason) implements Action {
    }

    /** RUNNING here with no container, started within the grace: judged at a later sync. */
    record Wait(String taskGuid) implements Action {
    }

    /**
     * {@code firstSync}: the cell has just started, so a missing container means the cell restarted; {@code now}: the
     * time a task's start is measured against.
     */
    static List<Action> plan(String cellId, Collection<Container> containers, Collection<TaskSummary> tasks,
            Set<String> busy, boolean firstSync, Instant now) {
        Map<String, Container> byTask = new HashMap<>();
        containers.forEach(c -> byTask.put(TaskContainers.taskGuid(c), c));
        Map<String, TaskSummary> byGuid = new HashMap<>();
        tasks.forEach(t -> byGuid.put(t.taskGuid(), t));
        List<Action> actions = new ArrayList<>();
        for (TaskSummary t : tasks) {
            if (t.state() == TaskState.RUNNING && cellId.equals(t.cellId()) && !byTask.containsKey(t.taskGuid())) {
                actions.add(firstSync ? new Fail(t.taskGuid(), CELL_RESTARTED)
                        : startedWithinGrace(t, now) ? new Wait(t.taskGuid()) : new Fail(t.taskGuid(), NO_PROCESS));
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

    /** A RUNNING task's last change is its start. */
    private static boolean startedWithinGrace(TaskSummary task, Instant now) {
        return task.updatedAt() != null && task.updatedAt().plus(START_GRACE).isAfter(now);
    }
}
