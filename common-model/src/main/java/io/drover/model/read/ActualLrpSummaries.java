package io.drover.model.read;

import io.drover.model.lrp.ActualLrpState;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * Every actual LRP in one streaming scan of the columns convergence needs ({@link ActualLrpSummary}). Rows arrive in
 * fetches of 5,000 when the scan runs inside a transaction ({@link ConsistentReads}), so 100,000 rows never sit in the
 * driver at once; domains and cell ids, which repeat across thousands of rows, are shared rather than copied.
 */
public class ActualLrpSummaries {

    /** Times come as epoch milliseconds: parsing 200,000 timestamps as text is the costliest part of the scan. */
    private static final String SCAN = "SELECT process_guid, instance_index, domain, state, cell_id, crash_count, "
            + "floor(extract(epoch FROM since) * 1000)::bigint, placed_cell_id, "
            + "floor(extract(epoch FROM placed_at) * 1000)::bigint FROM actual_lrps";

    private final JdbcTemplate jdbc;

    public ActualLrpSummaries(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setFetchSize(5_000);
    }

    /** Calls {@code each} with every actual LRP, in no particular order. */
    public void forEach(Consumer<ActualLrpSummary> each) {
        Map<String, String> shared = new HashMap<>();
        jdbc.query(SCAN, (RowCallbackHandler) rs -> {
            long placedAt = rs.getLong(9);
            Instant placed = rs.wasNull() ? null : Instant.ofEpochMilli(placedAt);
            each.accept(new ActualLrpSummary(rs.getString(1), rs.getInt(2), share(shared, rs.getString(3)),
                    ActualLrpState.valueOf(rs.getString(4)), share(shared, rs.getString(5)), rs.getInt(6),
                    Instant.ofEpochMilli(rs.getLong(7)), share(shared, rs.getString(8)), placed));
        });
    }

    private static String share(Map<String, String> shared, String value) {
        return value == null ? null : shared.computeIfAbsent(value, v -> v);
    }
}
