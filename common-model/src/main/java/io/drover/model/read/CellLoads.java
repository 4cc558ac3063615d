package io.drover.model.read;

import io.drover.model.cell.Resources;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The one definition of what a cell carries: every instance CLAIMED or RUNNING on it ({@code cell_id}) and every
 * placement in flight to it ({@code placed_cell_id}; the schema allows it only on UNCLAIMED records, so no instance
 * counts twice), each costing its desired LRP's memory and disk and one container slot. An instance whose desired LRP is
 * already deleted still holds a container but no memory or disk.
 */
public class CellLoads {

    private static final String CARRIED = """
            FROM actual_lrps a LEFT JOIN desired_lrps d ON d.process_guid = a.process_guid
            WHERE a.cell_id IS NOT NULL OR a.placed_cell_id IS NOT NULL""";
    private static final String SUMS = "count(*), count(*) FILTER (WHERE a.state <> 'RUNNING'), "
            + "coalesce(sum(d.memory_mb), 0), coalesce(sum(d.disk_mb), 0)";

    private final JdbcTemplate jdbc;

    public CellLoads(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The resources used on each cell that carries anything. */
    public Map<String, Resources> used() {
        Map<String, Resources> used = new HashMap<>();
        jdbc.query("SELECT coalesce(a.cell_id, a.placed_cell_id), " + SUMS + " " + CARRIED + " GROUP BY 1",
                (RowCallbackHandler) rs -> used.put(rs.getString(1),
                        new Resources(rs.getInt(4), rs.getInt(5), rs.getInt(2))));
        return used;
    }

    /** Each carrying cell's allocation, with its instances counted per process_guid (for spreading instances). */
    public Map<String, CellAllocation> allocations() {
        Map<String, Builder> cells = new HashMap<>();
        jdbc.query("SELECT coalesce(a.cell_id, a.placed_cell_id), a.process_guid, " + SUMS + " " + CARRIED
                + " GROUP BY 1, 2", (RowCallbackHandler) rs -> cells.computeIfAbsent(rs.getString(1),
                        c -> new Builder()).add(rs.getString(2), rs.getInt(3), rs.getInt(4), rs.getInt(5),
                        rs.getInt(6)));
        Map<String, CellAllocation> allocations = new HashMap<>();
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

        void add(String processGuid, int count, int startingCount, int memory, int disk) {
            instances.merge(processGuid, count, Integer::sum);
            containers += count;
            starting += startingCount;
            memoryMb += memory;
            diskMb += disk;
        }
    }
}
