package io.drover.rep.task;

import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskStart;
import io.drover.model.task.TaskStarted;
import java.util.Map;

/**
 * A cell's task writes, carried by the rep's group commit like its instance writes: the cells of one process share
 * transactions. Outcomes by task guid; a failed transaction throws, and the cell tries again on a later pass.
 */
public interface TaskWrites {

    /** Each start's outcome, with the task's definition as the start found it (what the cell runs when it made it). */
    Map<String, TaskStarted> startTasks(Map<String, TaskStart> starts);

    Map<String, Outcome> completeTasks(Map<String, TaskCompletion> completions);

    /** This cell turns placements away; each fails only while it is still placed here. */
    Map<String, Outcome> rejectTasks(String cellId, Map<String, String> errors);
}
