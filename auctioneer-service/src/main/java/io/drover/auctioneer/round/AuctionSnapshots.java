package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.task.TaskReads;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import tools.jackson.core.type.TypeReference;

/**
 * Reads what a round decides on, in bulk and read-only: the requested instances that still need a placement, and the
 * schedulable cells with what they already carry.
 */
class AuctionSnapshots {

    /** Keys per query: large enough to be few round trips, small enough for PostgreSQL to plan well. */
    private static final int KEYS_PER_QUERY = 5_000;

    /**
     * Still UNCLAIMED, still desired (index below the desired instance count) and with no placement in flight; anything
     * else was handled since the request was sent.
     */
    private static final String WORK = """
            SELECT a.process_guid, a.instance_index, d.memory_mb, d.disk_mb, d.rootfs, d.placement_tags
            FROM unnest(?, ?) AS k(process_guid, instance_index)
            JOIN actual_lrps a ON a.process_guid = k.process_guid AND a.instance_index = k.instance_index
            JOIN desired_lrps d ON d.process_guid = a.process_guid
            WHERE a.state = 'UNCLAIMED' AND a.placed_cell_id IS NULL AND a.instance_index < d.instances""";

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

    private static final TypeReference<List<String>> TAGS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;
    private final CellPresence presence;
    private final Clock clock;
    private final TaskReads tasks;

    AuctionSnapshots(JdbcTemplate jdbc, CellPresence presence, Clock clock, TaskReads tasks) {
        this.jdbc = jdbc;
        this.presence = presence;
        this.clock = clock;
        this.tasks = tasks;
    }

    List<Work> work(List<ActualLrpKey> keys) {
        List<Work> work = new ArrayList<>(keys.size());
        Map<String, Set<String>> tagsByJson = new HashMap<>();
        for (int from = 0; from < keys.size(); from += KEYS_PER_QUERY) {
            List<ActualLrpKey> chunk = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_QUERY));
            jdbc.query(con -> {
                var ps = con.prepareStatement(WORK);
                ps.setArray(1, con.createArrayOf("varchar", chunk.stream().map(ActualLrpKey::processGuid).toArray()));
                ps.setArray(2, con.createArrayOf("int4", chunk.stream().map(ActualLrpKey::index).toArray()));
                return ps;
            }, (RowCallbackHandler) rs -> {
                work.add(new Work(ActualLrpKey.of(rs.getString(1), rs.getInt(2)), rs.getInt(3), rs.getInt(4),
                        rs.getString(5), tagsByJson.computeIfAbsent(rs.getString(6), AuctionSnapshots::tags)));
            });
        }
        return work;
    }

    /** Live, ACTIVE cells (evacuating ones take nothing new) with their current allocation, tasks included. */
    List<CellLoad> cells() {
        Instant now = clock.instant();
        List<Cell> schedulable = presence.live().stream().filter(c -> c.isSchedulable(now)).toList();
        if (schedulable.isEmpty()) {
            return List.of();
        }
        Set<String> ids = new HashSet<>();
        schedulable.forEach(c -> ids.add(c.cellId()));
        Map<String, Allocation> allocations = new HashMap<>();
        jdbc.query(ALLOCATION, (RowCallbackHandler) rs -> {
            String cell = rs.getString("cell");
            if (ids.contains(cell)) {
                allocations.computeIfAbsent(cell, c -> new Allocation()).add(rs);
            }
        });
        return TaskLoads.including(schedulable.stream()
                .map(c -> allocations.getOrDefault(c.cellId(), new Allocation()).of(c)).toList(), tasks.loadByCell());
    }

    private static Set<String> tags(String json) {
        return json == null ? Set.of() : Set.copyOf(Json.read(json, TAGS));
    }

    /** Sums of one cell's rows of the allocation query. */
    private static final class Allocation {

        private final Map<String, Integer> instancesByProcessGuid = new HashMap<>();
        private int memoryMb;
        private int diskMb;
        private int containers;
        private int starting;

        void add(ResultSet rs) throws SQLException {
            int instances = rs.getInt("instances");
            instancesByProcessGuid.merge(rs.getString("process_guid"), instances, Integer::sum);
            memoryMb += rs.getInt("memory_mb");
            diskMb += rs.getInt("disk_mb");
            containers += instances;
            starting += rs.getInt("starting");
        }

        CellLoad of(Cell cell) {
            return CellLoad.of(cell, new Resources(memoryMb, diskMb, containers), instancesByProcessGuid, starting);
        }
    }
}
