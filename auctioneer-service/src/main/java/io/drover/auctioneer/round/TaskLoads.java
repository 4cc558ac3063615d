package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.model.cell.Resources;
import io.drover.model.task.TaskReads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds what tasks take to the cells' LRP allocation: a task running on a cell, or placed on it and not started yet,
 * holds its memory, its disk and one container slot, exactly like an instance. Without this an auction would hand a
 * cell busy with tasks more instances than it can run.
 */
final class TaskLoads {

    private TaskLoads() {
    }

    static List<CellLoad> including(List<CellLoad> cells, List<TaskReads.CellLoad> tasks) {
        if (tasks.isEmpty()) {
            return cells;
        }
        Map<String, TaskReads.CellLoad> byCell = new HashMap<>();
        tasks.forEach(t -> byCell.put(t.cellId(), t));
        return cells.stream().map(c -> {
            TaskReads.CellLoad t = byCell.get(c.cellId());
            return t == null ? c : new CellLoad(c.cellId(), c.zone(), c.capacity(),
                    c.allocated().plus(new Resources(t.memoryMb(), t.diskMb(), t.tasks())), c.rootfsProviders(),
                    c.requiredTags(), c.optionalTags(), c.instancesByProcessGuid(), c.starting() + t.starting());
        }).toList();
    }
}
