package io.drover.model.read;

import io.drover.model.lrp.ActualLrpState;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * Counts for people looking at the cluster (the dashboard): instances by state (of everything, of one domain, of a
 * page of processes, per cell), a bounded sample of the instances on each cell, lifecycle events in a window and tasks
 * by state. Each is one aggregate query whose answer is as small as its grouping, whatever the number of instances:
 * instances by state of everything or of a domain read the counts the database keeps as the rows change
 * ({@code instance_tallies}, V32), not the rows. {@link #fold} is the one write, which keeps those counts few.
 */
public class Tallies {

    private final JdbcTemplate jdbc;

    public Tallies(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Instances by state, of one domain or of all when {@code domain} is null; every state present, zero or not. The
     * sums of the kept deltas: exactly {@code count(*)} of the rows in the same snapshot, from a few rows per domain and
     * state (plus those appended since the last fold) instead of every instance.
     */
    public Map<ActualLrpState, Long> instancesByState(String domain) {
        Map<ActualLrpState, Long> counts = zeroes();
        String sql = "SELECT state, sum(n) FROM instance_tallies" + (domain == null ? "" : " WHERE domain = ?")
                + " GROUP BY state";
        RowCallbackHandler add = rs -> counts.put(ActualLrpState.valueOf(rs.getString(1)), rs.getLong(2));
        if (domain == null) {
            jdbc.query(sql, add);
        } else {
            jdbc.query(sql, add, domain);
        }
        return counts;
    }

    /** For each of {@code processGuids} that has instances: its counts by state and one of its placement errors. */
    public Map<String, ProcessTally> byProcess(Collection<String> processGuids) {
        Map<String, Map<ActualLrpState, Long>> counts = new HashMap<>();
        Map<String, String> errors = new HashMap<>();
        if (processGuids.isEmpty()) {
            return Map.of();
        }
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT process_guid, state, count(*), max(placement_error) FROM actual_lrps "
                    + "WHERE process_guid = ANY (?) GROUP BY process_guid, state");
            ps.setArray(1, con.createArrayOf("varchar", processGuids.toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> {
            counts.computeIfAbsent(rs.getString(1), g -> zeroes()).put(ActualLrpState.valueOf(rs.getString(2)),
                    rs.getLong(3));
            String error = rs.getString(4);
            if (error != null && !error.isEmpty()) {
                errors.put(rs.getString(1), error);
            }
        });
        Map<String, ProcessTally> tallies = new HashMap<>();
        counts.forEach((guid, byState) -> tallies.put(guid, new ProcessTally(byState, errors.get(guid))));
        return tallies;
    }

    /**
     * For each of {@code cellIds} that carries instances ({@code cell_id}, or {@code placed_cell_id} in flight): its
     * counts by state and at most {@code sample} of its instances in key order, so a cell of thousands draws in bounded
     * size. Only the cells asked for are read (a page of cards), each sample through the cell indexes.
     */
    public Map<String, CellTally> byCell(Collection<String> cellIds, int sample) {
        Map<String, CellTally> cells = new LinkedHashMap<>();
        if (cellIds.isEmpty()) {
            return cells;
        }
        Object[] ids = cellIds.toArray();
        jdbc.query(con -> {
            var ps = con.prepareStatement("""
                    SELECT c.cell, a.process_guid, a.instance_index, a.state
                    FROM unnest(?::varchar[]) AS c(cell) CROSS JOIN LATERAL (
                        SELECT process_guid, instance_index, state FROM (
                            SELECT process_guid, instance_index, state FROM actual_lrps WHERE cell_id = c.cell
                            UNION ALL
                            SELECT process_guid, instance_index, state FROM actual_lrps WHERE placed_cell_id = c.cell
                        ) AS on_cell ORDER BY process_guid, instance_index LIMIT ?) AS a""");
            ps.setArray(1, con.createArrayOf("varchar", ids));
            ps.setInt(2, sample);
            return ps;
        }, (RowCallbackHandler) rs -> cells.computeIfAbsent(rs.getString(1), c -> new CellTally(zeroes(),
                new ArrayList<>())).sample().add(new InstanceMark(rs.getString(2), rs.getInt(3),
                ActualLrpState.valueOf(rs.getString(4)))));
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT coalesce(cell_id, placed_cell_id), state, count(*) FROM actual_lrps "
                    + "WHERE cell_id = ANY (?) OR placed_cell_id = ANY (?) GROUP BY 1, 2");
            ps.setArray(1, con.createArrayOf("varchar", ids));
            ps.setArray(2, con.createArrayOf("varchar", ids));
            return ps;
        }, (RowCallbackHandler) rs -> cells.computeIfAbsent(rs.getString(1), c -> new CellTally(zeroes(),
                new ArrayList<>())).byState().put(ActualLrpState.valueOf(rs.getString(2)), rs.getLong(3)));
        return cells;
    }

    /**
     * Folds the kept counts into one row per domain and state (none for a count of zero), in one statement: the rows
     * it deletes are those its snapshot sees, their sums go back in the same transaction, so every reader sees the
     * same totals before and after, and rows appended meanwhile (by transactions it cannot see) stay for the next
     * fold. Two folds at once are safe: a row one has deleted is skipped by the other. Answers the rows deleted.
     */
    public int fold() {
        Integer folded = jdbc.queryForObject("""
                WITH folded AS (DELETE FROM instance_tallies RETURNING domain, state, n),
                     kept AS (INSERT INTO instance_tallies (domain, state, n)
                              SELECT domain, state, sum(n) FROM folded GROUP BY domain, state HAVING sum(n) <> 0)
                SELECT count(*)::int FROM folded""", Integer.class);
        return folded == null ? 0 : folded;
    }

    /** Lifecycle events recorded after {@code since} (the events table is indexed by time). */
    public long eventsSince(Instant since) {
        return jdbc.queryForObject("SELECT count(*) FROM lrp_events WHERE at > ?", Long.class, Timestamp.from(since));
    }

    /** Tasks by state name (PENDING, RUNNING, COMPLETED, RESOLVING), only the states present. */
    public Map<String, Long> tasksByState() {
        Map<String, Long> counts = new LinkedHashMap<>();
        jdbc.query("SELECT state, count(*) FROM tasks GROUP BY state ORDER BY state",
                (RowCallbackHandler) rs -> counts.put(rs.getString(1), rs.getLong(2)));
        return counts;
    }

    /** Zero instances of every state. */
    public static Map<ActualLrpState, Long> noInstances() {
        return zeroes();
    }

    private static Map<ActualLrpState, Long> zeroes() {
        Map<ActualLrpState, Long> counts = new EnumMap<>(ActualLrpState.class);
        for (ActualLrpState state : ActualLrpState.values()) {
            counts.put(state, 0L);
        }
        return counts;
    }

    /** One process's instances by state, and one of its placement errors (null when none). */
    public record ProcessTally(Map<ActualLrpState, Long> byState, String placementError) {
    }

    /** One cell's instances by state and a sample of them. */
    public record CellTally(Map<ActualLrpState, Long> byState, List<InstanceMark> sample) {

        /** Its instances, every state. */
        public long total() {
            return byState.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** One instance on a cell, as the topology draws it. */
    public record InstanceMark(String processGuid, int index, ActualLrpState state) {
    }
}
