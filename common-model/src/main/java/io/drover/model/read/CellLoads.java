package io.drover.model.read;

import io.drover.model.cell.Resources;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The one definition of what a cell carries, for every reader (the auctioneer's allocation view, the API's
 * {@code available}, the dashboard). Each takes its memory, its disk and one container:
 * <ul>
 * <li>every instance CLAIMED or RUNNING on the cell ({@code cell_id}) and every placement in flight to it
 * ({@code placed_cell_id}; the schema allows it only on UNCLAIMED records, so no instance counts twice), at its desired
 * LRP's size (an instance whose desired LRP is already deleted holds a container but no memory or disk);</li>
 * <li>every twin on the cell ({@code evacuating_lrps}: an old instance a drain or a deployment keeps serving while its
 * slot's new instance is placed elsewhere), at its desired LRP's size, like an instance: its container runs until the
 * twin is removed;</li>
 * <li>every task RUNNING on the cell or placed on it and not started yet.</li>
 * </ul>
 * Starting are the instances placed or CLAIMED (not RUNNING yet) and the tasks placed and not started. Only the
 * instances count per process_guid, for spreading an LRP's instances: a twin is on its way out (spreading from it would
 * leave the LRP lopsided once it is gone) and a task has no siblings.
 */
public class CellLoads {

    private static final String INSTANCE_SUMS = "count(*), count(*) FILTER (WHERE a.state <> 'RUNNING'), "
            + "coalesce(sum(d.memory_mb), 0), coalesce(sum(d.disk_mb), 0) ";
    /** The instances on cells; {@code %1$s} is the test a cell id passes: every cell, or the cells asked for. */
    private static final String INSTANCES = """
            FROM actual_lrps a LEFT JOIN desired_lrps d ON d.process_guid = a.process_guid
            WHERE a.cell_id %1$s OR a.placed_cell_id %1$s""";
    /** Per cell and process_guid: the instances owned by or placed on the cell. */
    private static final String INSTANCES_PER_LRP = "SELECT coalesce(a.cell_id, a.placed_cell_id), a.process_guid, "
            + INSTANCE_SUMS + INSTANCES + " GROUP BY 1, 2";
    /** The same per cell alone, process_guid null. */
    private static final String INSTANCES_PER_CELL = "SELECT coalesce(a.cell_id, a.placed_cell_id), NULL, "
            + INSTANCE_SUMS + INSTANCES + " GROUP BY 1";

    /** Per cell, process_guid null: the twins on it and the tasks it runs or is about to; {@code %1$s} as above. */
    private static final String TWINS_AND_TASKS = """
            SELECT e.cell_id, NULL, count(*), 0, coalesce(sum(d.memory_mb), 0), coalesce(sum(d.disk_mb), 0)
            FROM evacuating_lrps e LEFT JOIN desired_lrps d ON d.process_guid = e.process_guid
            WHERE e.cell_id %1$s
            GROUP BY 1
            UNION ALL
            SELECT coalesce(t.cell_id, t.placed_cell_id), NULL, count(*), count(*) FILTER (WHERE t.state = 'PENDING'),
                   sum(t.memory_mb), sum(t.disk_mb)
            FROM tasks t
            WHERE (t.state = 'RUNNING' AND t.cell_id %1$s)
               OR (t.state = 'PENDING' AND t.placed_cell_id %1$s)
            GROUP BY 1""";

    /** Every cell (a twin's cell_id is never null). */
    private static final String ANY_CELL = "IS NOT NULL";
    /** The cells in the array bound to each {@code ?}: each part reads through its table's cell index. */
    private static final String CELLS_ASKED = "= ANY (?)";
    private static final String ALLOCATIONS = (INSTANCES_PER_LRP + " UNION ALL " + TWINS_AND_TASKS).formatted(ANY_CELL);
    private static final String TOTALS = (INSTANCES_PER_CELL + " UNION ALL " + TWINS_AND_TASKS).formatted(ANY_CELL);
    private static final String USED = (INSTANCES_PER_CELL + " UNION ALL " + TWINS_AND_TASKS).formatted(CELLS_ASKED);
    /** Each {@code ?} of {@link #USED} takes the same array of cell ids. */
    private static final long USED_PARAMETERS = USED.chars().filter(c -> c == '?').count();

    private final JdbcTemplate jdbc;

    public CellLoads(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The resources used on each of {@code cellIds} that carries anything. Only those cells' rows are read, so a page
     * of cells, or one cell, costs what they hold and not what the cluster does (the dashboard's cells page read every
     * instance of a million to draw 24 cards: 2.4 s).
     */
    public Map<String, Resources> used(Collection<String> cellIds) {
        Map<String, Resources> used = new HashMap<>();
        if (cellIds.isEmpty()) {
            return used;
        }
        Object[] ids = cellIds.toArray();
        jdbc.query(con -> {
            var ps = con.prepareStatement(USED);
            var array = con.createArrayOf("varchar", ids);
            for (int i = 1; i <= USED_PARAMETERS; i++) {
                ps.setArray(i, array);
            }
            return ps;
        }, (RowCallbackHandler) rs -> used.merge(rs.getString(1),
                new Resources(rs.getInt(5), rs.getInt(6), rs.getInt(3)), Resources::plus));
        return used;
    }

    /**
     * Each carrying cell's allocation, with its instances counted per process_guid (for spreading instances). One
     * statement; its cost grows with the instances placed or owned (one row per cell and LRP).
     */
    public Map<String, CellAllocation> allocations() {
        return allocations(ALLOCATIONS);
    }

    /**
     * Each carrying cell's allocation without its counts per process_guid (empty), for a reader that spreads nothing
     * (the auction's rounds of tasks): one row per cell, not one per cell and LRP.
     */
    public Map<String, CellAllocation> totals() {
        return allocations(TOTALS);
    }

    private Map<String, CellAllocation> allocations(String sql) {
        Map<String, Builder> cells = new HashMap<>();
        jdbc.query(sql, (RowCallbackHandler) rs -> cells.computeIfAbsent(rs.getString(1), c -> new Builder()).add(rs));
        Map<String, CellAllocation> allocations = new HashMap<>(cells.size() * 2);
        cells.forEach((cell, b) -> allocations.put(cell, new CellAllocation(
                new Resources(b.memoryMb, b.diskMb, b.containers), b.starting, b.instances)));
        return allocations;
    }

    private static final class Builder {
        private final Map<String, Integer> instances = new HashMap<>();
        private int containers;
        private int starting;
        private int memoryMb;
        private int diskMb;

        void add(ResultSet rs) throws SQLException {
            String processGuid = rs.getString(2);
            int count = rs.getInt(3);
            if (processGuid != null) {
                instances.merge(processGuid, count, Integer::sum);
            }
            containers += count;
            starting += rs.getInt(4);
            memoryMb += rs.getInt(5);
            diskMb += rs.getInt(6);
        }
    }
}
