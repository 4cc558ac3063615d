package io.drover.auctioneer.allocation;

import io.drover.model.task.TaskReads;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The full allocation aggregate, read-only: the one query whose cost grows with every instance in the cluster, and
 * what the cells' tasks take.
 */
class AllocationReader {

    /**
     * The key the tasks of a cell are counted under in its instances per process_guid: no process_guid can be empty,
     * so no LRP's spread counts them, and no task's either (a task has no siblings to spread from).
     */
    static final String TASKS = "";

    /**
     * What each cell carries, per LRP: instances CLAIMED or RUNNING on it plus placements in flight to it. CLAIMED and
     * placed-but-unclaimed instances are still starting. An instance whose desired LRP is gone still holds a container.
     */
    private static final String ALLOCATION = """
            SELECT coalesce(a.cell_id, a.placed_cell_id) AS cell, a.process_guid, count(*) AS instances,
                   count(*) FILTER (WHERE a.state <> 'RUNNING') AS starting,
                   coalesce(sum(d.memory_mb), 0) AS memory_mb, coalesce(sum(d.disk_mb), 0) AS disk_mb
            FROM actual_lrps a LEFT JOIN desired_lrps d ON d.process_guid = a.process_guid
            WHERE a.cell_id IS NOT NULL OR a.placed_cell_id IS NOT NULL
            GROUP BY 1, 2""";

    private final JdbcTemplate jdbc;
    private final TaskReads tasks;

    AllocationReader(JdbcTemplate jdbc, TaskReads tasks) {
        this.jdbc = jdbc;
        this.tasks = tasks;
    }

    AllocationView read() {
        List<AllocationRow> rows = new ArrayList<>();
        jdbc.query(ALLOCATION, (RowCallbackHandler) rs -> rows.add(new AllocationRow(rs.getString("cell"),
                rs.getString("process_guid"), rs.getInt("instances"), rs.getInt("starting"), rs.getInt("memory_mb"),
                rs.getInt("disk_mb"))));
        rows.addAll(taskRows(tasks.loadByCell()));
        return AllocationView.of(rows);
    }

    /**
     * A task running on a cell, or placed on it and not started yet (starting), holds its memory, its disk and one
     * container, exactly like an instance: without it an auction would give a cell busy with tasks more than it runs.
     */
    static List<AllocationRow> taskRows(List<TaskReads.CellLoad> loads) {
        return loads.stream().map(l -> new AllocationRow(l.cellId(), TASKS, l.tasks(), l.starting(), l.memoryMb(),
                l.diskMb())).toList();
    }
}
