package io.drover.model.read;

import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The actual LRPs in the columns convergence needs ({@link ActualLrpSummary}): every one in one streaming scan
 * ({@link #forEach}), or only those a convergence rule may act on ({@link #forEachUnsettled}) beside two index-only
 * summaries that say which LRPs have exactly their instances ({@link #indexSpans}) and which cells hold instances
 * ({@link #cellsHolding}). Rows arrive in fetches of 5,000 when the scan runs inside a transaction
 * ({@link ConsistentReads}), so 100,000 rows never sit in the driver at once; domains and cell ids, which repeat across
 * thousands of rows, are shared rather than copied.
 */
public class ActualLrpSummaries {

    /** Times come as epoch milliseconds: parsing 200,000 timestamps as text is the costliest part of the scan. */
    private static final String SCAN = "SELECT process_guid, instance_index, domain, state, cell_id, crash_count, "
            + "floor(extract(epoch FROM since) * 1000)::bigint, placed_cell_id, "
            + "floor(extract(epoch FROM placed_at) * 1000)::bigint FROM actual_lrps";

    /**
     * Per LRP, how many instances it has and its highest index, from the primary key alone (an index-only scan when
     * the table's pages are all visible): with indexes unique per LRP (the key) and never negative (a CHECK of V1),
     * {@code count == instances} and {@code highest == instances - 1} say the LRP has exactly the indexes 0 to
     * instances - 1.
     */
    private static final String SPANS = "SELECT process_guid, count(*), max(instance_index) FROM actual_lrps "
            + "GROUP BY process_guid";

    /**
     * The distinct cells that own instances, one index probe per cell (a "loose index scan" of actual_lrps_cell_idx):
     * it grows with the cells, not with the instances they hold.
     */
    private static final String CELLS_HOLDING = "WITH RECURSIVE c AS ("
            + "(SELECT cell_id FROM actual_lrps WHERE cell_id IS NOT NULL ORDER BY cell_id LIMIT 1) UNION ALL "
            + "SELECT (SELECT a.cell_id FROM actual_lrps a WHERE a.cell_id > c.cell_id ORDER BY a.cell_id LIMIT 1) "
            + "FROM c WHERE c.cell_id IS NOT NULL) SELECT cell_id FROM c WHERE cell_id IS NOT NULL";

    /**
     * The rows no cell owns (UNCLAIMED and CRASHED: actual_lrps_unowned_idx), those on the given cells
     * (actual_lrps_cell_idx) and every row of the given LRPs (the primary key).
     */
    private static final String UNSETTLED = SCAN + " WHERE cell_id IS NULL OR cell_id = ANY (?) "
            + "OR process_guid = ANY (?)";

    private final JdbcTemplate jdbc;

    public ActualLrpSummaries(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setFetchSize(5_000);
    }

    /** Calls {@code each} with every actual LRP, in no particular order. */
    public void forEach(Consumer<ActualLrpSummary> each) {
        jdbc.query(SCAN, rows(each));
    }

    /** How many instances each LRP that has any has, and its highest index. */
    public record IndexSpan(int count, int highest) {

        /** Exactly the indexes 0 to {@code instances - 1}, none missing and none beyond. */
        public boolean isExactly(int instances) {
            return count == instances && highest == instances - 1;
        }
    }

    /** Per process guid, the span of its instances' indexes ({@link IndexSpan}); LRPs without instances are absent. */
    public Map<String, IndexSpan> indexSpans() {
        Map<String, IndexSpan> spans = new HashMap<>();
        jdbc.query(SPANS, (RowCallbackHandler) rs -> spans.put(rs.getString(1), new IndexSpan(rs.getInt(2),
                rs.getInt(3))));
        return spans;
    }

    /** The cells that own at least one instance (CLAIMED or RUNNING on them). */
    public Set<String> cellsHolding() {
        return new HashSet<>(jdbc.queryForList(CELLS_HOLDING, String.class));
    }

    /**
     * Calls {@code each} with every actual LRP no cell owns (UNCLAIMED, CRASHED), every one owned by one of
     * {@code cells}, and every one of the LRPs {@code processGuids}: each once, in no particular order.
     */
    public void forEachUnsettled(Collection<String> cells, Collection<String> processGuids,
            Consumer<ActualLrpSummary> each) {
        jdbc.query(con -> {
            var ps = con.prepareStatement(UNSETTLED);
            ps.setFetchSize(5_000);
            ps.setArray(1, con.createArrayOf("varchar", cells.toArray()));
            ps.setArray(2, con.createArrayOf("varchar", processGuids.toArray()));
            return ps;
        }, rows(each));
    }

    private static RowCallbackHandler rows(Consumer<ActualLrpSummary> each) {
        Map<String, String> shared = new HashMap<>();
        return rs -> {
            long placedAt = rs.getLong(9);
            Instant placed = rs.wasNull() ? null : Instant.ofEpochMilli(placedAt);
            each.accept(new ActualLrpSummary(rs.getString(1), rs.getInt(2), share(shared, rs.getString(3)),
                    ActualLrpState.valueOf(rs.getString(4)), share(shared, rs.getString(5)), rs.getInt(6),
                    Instant.ofEpochMilli(rs.getLong(7)), share(shared, rs.getString(8)), placed));
        };
    }

    private static String share(Map<String, String> shared, String value) {
        return value == null ? null : shared.computeIfAbsent(value, v -> v);
    }
}
