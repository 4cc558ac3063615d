package io.drover.model.messaging;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code lrp_events} table: one row per visible change of a desired or actual LRP, a task or a deployment, written
 * in the transaction of the change. It is the audit trail, and a row with a payload is also the lifecycle event (the
 * payload is its Kafka value), which the {@link OutboxRelay} publishes from the row itself.
 *
 * <p>A transaction's rows go in one {@code INSERT ... SELECT FROM unnest(...)}, one array per column, as the actual LRP
 * records are written: one statement and one execution of the table's notify trigger whatever the number of rows,
 * where a JDBC batch encodes every parameter of every row and runs as several statements (the driver rewrites it into
 * multi-row inserts of power-of-two sizes), each planned and triggered apart. The rows take their ids in the order
 * given.
 */
public class AuditLog {

    private static final String INSERT = """
            INSERT INTO lrp_events (at, entity, process_guid, instance_index, event_type, from_state, to_state, reason,
                                    actor_service, actor_cell_id, version, event_id, payload)
            SELECT ?::timestamptz, e.*
            FROM unnest(?::varchar[], ?::varchar[], ?::int[], ?::varchar[], ?::varchar[], ?::varchar[], ?::text[],
                        ?::varchar[], ?::varchar[], ?::bigint[], ?::uuid[], ?::bytea[]) AS e
            """;

    private final JdbcTemplate jdbc;
    private final Outbox outbox;

    public AuditLog(JdbcTemplate jdbc, Outbox outbox) {
        this.jdbc = jdbc;
        this.outbox = outbox;
    }

    /**
     * One audit row: {@code key} is the process guid (or the task guid), {@code index} the instance index of an actual
     * LRP, {@code version} the entity's version after the change; {@code eventId} and {@code payload} are null for a
     * row that is only audit (nothing is published).
     */
    public record Entry(String entity, String key, Integer index, String type, String from, String to, String reason,
            long version, String actorService, String actorCellId, UUID eventId, byte[] payload) {
    }

    /** Appends the rows in the current transaction, all stamped {@code at}; wakes this JVM's relay after the commit. */
    public void append(List<Entry> entries, Instant at) {
        if (entries.isEmpty()) {
            return;
        }
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(INSERT);
            ps.setTimestamp(1, Timestamp.from(at));
            ps.setArray(2, column(con, "varchar", entries, Entry::entity, String[]::new));
            ps.setArray(3, column(con, "varchar", entries, Entry::key, String[]::new));
            ps.setArray(4, column(con, "int4", entries, Entry::index, Integer[]::new));
            ps.setArray(5, column(con, "varchar", entries, Entry::type, String[]::new));
            ps.setArray(6, column(con, "varchar", entries, Entry::from, String[]::new));
            ps.setArray(7, column(con, "varchar", entries, Entry::to, String[]::new));
            ps.setArray(8, column(con, "text", entries, Entry::reason, String[]::new));
            ps.setArray(9, column(con, "varchar", entries, Entry::actorService, String[]::new));
            ps.setArray(10, column(con, "varchar", entries, Entry::actorCellId, String[]::new));
            ps.setArray(11, column(con, "int8", entries, Entry::version, Long[]::new));
            ps.setArray(12, column(con, "uuid", entries, Entry::eventId, UUID[]::new));
            ps.setArray(13, column(con, "bytea", entries, Entry::payload, byte[][]::new));
            return ps;
        });
        outbox.wakeRelayAfterCommit();
    }

    private static <T> Array column(Connection con, String type, List<Entry> entries, Function<Entry, T> value,
            IntFunction<T[]> array) throws SQLException {
        T[] values = array.apply(entries.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = value.apply(entries.get(i));
        }
        return con.createArrayOf(type, values);
    }
}
