package io.drover.receptor.cells;

import io.drover.model.cell.Resources;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * What each cell has committed, in one query: instances CLAIMED or RUNNING on it plus placements in flight to it
 * (auction results not yet claimed), each costing its desired LRP's memory and disk and one container slot. Each
 * branch of the union uses its partial index.
 */
@Repository
class CellUsage {

    private static final String USAGE = """
            SELECT u.cell_id, COALESCE(SUM(u.memory_mb), 0) AS memory_mb, COALESCE(SUM(u.disk_mb), 0) AS disk_mb,
                   COUNT(*) AS containers
            FROM (
                SELECT a.cell_id, d.memory_mb, d.disk_mb
                FROM actual_lrps a LEFT JOIN desired_lrps d ON d.process_guid = a.process_guid
                WHERE a.cell_id IS NOT NULL AND a.state IN ('CLAIMED', 'RUNNING')
                UNION ALL
                SELECT a.placed_cell_id, d.memory_mb, d.disk_mb
                FROM actual_lrps a LEFT JOIN desired_lrps d ON d.process_guid = a.process_guid
                WHERE a.placed_cell_id IS NOT NULL
            ) u
            GROUP BY u.cell_id
            """;

    private final JdbcTemplate jdbc;

    CellUsage(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Map<String, Resources> byCell() {
        Map<String, Resources> used = new HashMap<>();
        jdbc.query(USAGE, rs -> {
            used.put(rs.getString("cell_id"), new Resources(rs.getInt("memory_mb"), rs.getInt("disk_mb"),
                    rs.getInt("containers")));
        });
        return used;
    }
}
