package io.drover.auctioneer.allocation;

import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/** The full allocation aggregate, read-only: the one query whose cost grows with every instance in the cluster. */
class AllocationReader {

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

    AllocationReader(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    AllocationView read() {
        List<AllocationRow> rows = new ArrayList<>();
        jdbc.query(ALLOCATION, (RowCallbackHandler) rs -> rows.add(new AllocationRow(rs.getString("cell"),
                rs.getString("process_guid"), rs.getInt("instances"), rs.getInt("starting"), rs.getInt("memory_mb"),
                rs.getInt("disk_mb"))));
        return AllocationView.of(rows);
    }
}
