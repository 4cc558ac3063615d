package io.drover.converger.pass;

import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.model.lrp.ActualLrpState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Reads a pass's snapshot in one read-only REPEATABLE READ transaction, so desired, actual, cells and domains are all
 * seen as of the same instant. Plain JDBC with a fetch size: 100,000 rows stream in without an entity per row.
 */
class SnapshotReader {

    /** Times come as epoch milliseconds: parsing 200,000 timestamps as text is the costliest part of the read. */
    private static final String ACTUALS = "SELECT process_guid, instance_index, domain, state, cell_id, crash_count, "
            + "floor(extract(epoch FROM since) * 1000)::bigint, placed_cell_id, "
            + "floor(extract(epoch FROM placed_at) * 1000)::bigint FROM actual_lrps";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final Clock clock;

    SnapshotReader(DataSource dataSource, PlatformTransactionManager transactions, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.jdbc.setFetchSize(5_000);
        this.tx = new TransactionTemplate(transactions);
        this.tx.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.tx.setReadOnly(true);
        this.clock = clock;
    }

    ConvergenceSnapshot read() {
        return tx.execute(status -> {
            Instant now = clock.instant();
            Timestamp at = Timestamp.from(now);
            Map<String, String> interned = new HashMap<>();
            List<Desired> desired = jdbc.query("SELECT process_guid, domain, instances FROM desired_lrps",
                    (rs, row) -> new Desired(rs.getString(1), intern(interned, rs.getString(2)), rs.getInt(3)));
            List<Actual> actuals = new ArrayList<>(desired.size() * 4);
            jdbc.query(ACTUALS, rs -> {
                actuals.add(actual(rs, interned));
            });
            Set<String> liveCells = new HashSet<>(jdbc.queryForList(
                    "SELECT cell_id FROM cells WHERE expires_at > ?", String.class, at));
            Set<String> freshDomains = new HashSet<>(jdbc.queryForList(
                    "SELECT name FROM domains WHERE expires_at IS NULL OR expires_at > ?", String.class, at));
            return new ConvergenceSnapshot(now, desired, actuals, liveCells, freshDomains);
        });
    }

    private static Actual actual(ResultSet rs, Map<String, String> interned) throws SQLException {
        long placedAt = rs.getLong(9);
        Instant placed = rs.wasNull() ? null : Instant.ofEpochMilli(placedAt);
        return new Actual(rs.getString(1), rs.getInt(2), intern(interned, rs.getString(3)),
                ActualLrpState.valueOf(rs.getString(4)), intern(interned, rs.getString(5)), rs.getInt(6),
                Instant.ofEpochMilli(rs.getLong(7)), intern(interned, rs.getString(8)), placed);
    }

    /** Domains and cell ids repeat across thousands of rows: keep one copy of each. */
    private static String intern(Map<String, String> interned, String value) {
        return value == null ? null : interned.computeIfAbsent(value, v -> v);
    }
}
