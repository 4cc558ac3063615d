package io.drover.model.usage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code instance_usage} table: each rep writes its sampling rounds, the receptor reads the figures of the current
 * incarnation of every index. These are measurements, not lifecycle state, so they bypass the lifecycle: no version,
 * no event, no outbox, and a lost round is simply overwritten by the next.
 */
public class InstanceUsages {

    /** Rows of a cell whose presence expired this long ago (or that has no row at all) are swept by a full round. */
    public static final Duration SWEEP_AFTER = Duration.ofMinutes(10);

    private static final String COLUMNS = "instance_guid, process_guid, instance_index, cell_id, cpu_percent, "
            + "memory_bytes, memory_limit_bytes, disk_bytes, started_at";

    private static final String WRITE = """
            WITH input AS (
                SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::int[], ?::varchar[], ?::float8[], ?::int8[],
                                     ?::int8[], ?::int8[], ?::timestamptz[])
                    AS t(instance_guid, process_guid, instance_index, cell_id, cpu_percent, memory_bytes,
                         memory_limit_bytes, disk_bytes, started_at)
            ), removed AS (
                DELETE FROM instance_usage u
                WHERE u.instance_guid = ANY (?::varchar[])
                   OR (?::boolean AND u.cell_id = ANY (?::varchar[])
                       AND NOT EXISTS (SELECT 1 FROM input i WHERE i.instance_guid = u.instance_guid))
                   OR (?::boolean AND u.cell_id <> ALL (?::varchar[])
                       AND NOT EXISTS (SELECT 1 FROM cells c WHERE c.cell_id = u.cell_id AND c.expires_at > ?))
            )
            INSERT INTO instance_usage (%1$s) SELECT %1$s FROM input
            ON CONFLICT (instance_guid) DO UPDATE SET process_guid = EXCLUDED.process_guid,
                instance_index = EXCLUDED.instance_index, cell_id = EXCLUDED.cell_id,
                cpu_percent = EXCLUDED.cpu_percent, memory_bytes = EXCLUDED.memory_bytes,
                memory_limit_bytes = EXCLUDED.memory_limit_bytes, disk_bytes = EXCLUDED.disk_bytes,
                started_at = EXCLUDED.started_at
            """.formatted(COLUMNS);

    private static final String CURRENT = "SELECT " + prefixed("u") + " FROM instance_usage u "
            + "JOIN actual_lrps a ON a.process_guid = u.process_guid AND a.instance_index = u.instance_index "
            + "AND a.instance_guid = u.instance_guid WHERE u.process_guid = ? ORDER BY u.instance_index";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public InstanceUsages(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /**
     * Writes one sampling round in a single statement: upserts the new and changed figures, deletes the rows of removed
     * instances and, for a full round, every other row of the rep's cells and the rows of cells gone for
     * {@link #SWEEP_AFTER}. Sends nothing for an empty round.
     */
    public void write(UsageRound round) {
        if (round.isEmpty()) {
            return;
        }
        Timestamp liveAfter = Timestamp.from(clock.instant().minus(SWEEP_AFTER));
        jdbc.execute((Connection con) -> {
            try (PreparedStatement ps = con.prepareStatement(WRITE)) {
                List<InstanceUsage> rows = round.upserts();
                ps.setArray(1, con.createArrayOf("varchar", rows.stream().map(InstanceUsage::instanceGuid).toArray()));
                ps.setArray(2, con.createArrayOf("varchar", rows.stream().map(InstanceUsage::processGuid).toArray()));
                ps.setArray(3, con.createArrayOf("int4", rows.stream().map(InstanceUsage::index).toArray()));
                ps.setArray(4, con.createArrayOf("varchar", rows.stream().map(InstanceUsage::cellId).toArray()));
                ps.setArray(5, con.createArrayOf("float8", rows.stream().map(InstanceUsage::cpuPercent).toArray()));
                ps.setArray(6, con.createArrayOf("int8", rows.stream().map(InstanceUsage::memoryBytes).toArray()));
                ps.setArray(7, con.createArrayOf("int8",
                        rows.stream().map(InstanceUsage::memoryLimitBytes).toArray()));
                ps.setArray(8, con.createArrayOf("int8", rows.stream().map(InstanceUsage::diskBytes).toArray()));
                ps.setArray(9, con.createArrayOf("timestamptz",
                        rows.stream().map(r -> Timestamp.from(r.startedAt())).toArray()));
                ps.setArray(10, con.createArrayOf("varchar", round.removed().toArray()));
                Object[] cells = round.cellIds().toArray();
                ps.setBoolean(11, round.full());
                ps.setArray(12, con.createArrayOf("varchar", cells));
                ps.setBoolean(13, round.full());
                ps.setArray(14, con.createArrayOf("varchar", cells));
                ps.setTimestamp(15, liveAfter);
                return ps.executeUpdate();
            }
        });
    }

    /**
     * The figures of one desired LRP's instances, by index: only those of the incarnation its actual LRP names now, so a
     * replaced, evacuated or crashed instance's last figures never show.
     */
    public List<InstanceUsage> current(String processGuid) {
        return jdbc.query(CURRENT, InstanceUsages::map, processGuid);
    }

    private static InstanceUsage map(ResultSet rs, int row) throws SQLException {
        return new InstanceUsage(rs.getString("process_guid"), rs.getInt("instance_index"),
                rs.getString("instance_guid"), rs.getString("cell_id"), rs.getDouble("cpu_percent"),
                rs.getLong("memory_bytes"), rs.getLong("memory_limit_bytes"), rs.getLong("disk_bytes"),
                rs.getTimestamp("started_at").toInstant());
    }

    private static String prefixed(String alias) {
        return alias + "." + COLUMNS.replace(", ", ", " + alias + ".");
    }
}
