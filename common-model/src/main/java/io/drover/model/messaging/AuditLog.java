package io.drover.model.messaging;

import static io.drover.model.jdbc.SqlArrays.bytes;
import static io.drover.model.jdbc.SqlArrays.ints;
import static io.drover.model.jdbc.SqlArrays.longs;
import static io.drover.model.jdbc.SqlArrays.strings;
import static io.drover.model.jdbc.SqlArrays.uuids;

import io.drover.model.time.IsoInstants;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
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
            ps.setString(1, IsoInstants.format(at)); // the cast parses it; a Timestamp costs the driver a Calendar
            ps.setArray(2, strings(con, entries, Entry::entity));
            ps.setArray(3, strings(con, entries, Entry::key));
            ps.setArray(4, ints(con, entries, Entry::index));
            ps.setArray(5, strings(con, entries, Entry::type));
            ps.setArray(6, strings(con, entries, Entry::from));
            ps.setArray(7, strings(con, entries, Entry::to));
            ps.setArray(8, strings(con, entries, Entry::reason));
            ps.setArray(9, strings(con, entries, Entry::actorService));
            ps.setArray(10, strings(con, entries, Entry::actorCellId));
            ps.setArray(11, longs(con, entries, Entry::version));
            ps.setArray(12, uuids(con, entries, Entry::eventId));
            ps.setArray(13, bytes(con, entries, Entry::payload));
            return ps;
        });
        outbox.wakeRelayAfterCommit();
    }
}
