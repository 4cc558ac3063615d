package io.drover.model.messaging;

import java.sql.Timestamp;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Garbage collection of the relayed tables: deletes old rows, but only rows the relay has passed already, so a row
 * waiting for Kafka (an outage longer than the retention) is never lost. One call deletes at most {@code limit} rows in
 * one short statement.
 */
public class RelayedRows {

    private final JdbcTemplate jdbc;

    public RelayedRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Outbox rows (commands) relayed and written before {@code cutoff}. */
    public int deleteOutboxBefore(Instant cutoff, int limit) {
        return delete(RelaySource.OUTBOX, "created_at", cutoff, limit);
    }

    /** Audit rows ({@code lrp_events}) written before {@code cutoff} and, if they are events, relayed. */
    public int deleteEventsBefore(Instant cutoff, int limit) {
        return delete(RelaySource.EVENTS, "at", cutoff, limit);
    }

    private int delete(RelaySource source, String createdAt, Instant cutoff, int limit) {
        String table = source.sourceName();
        return jdbc.update("DELETE FROM " + table + " WHERE id IN (SELECT id FROM " + table + " WHERE " + createdAt
                + " < ? AND (tx_id, id) <= (SELECT tx_id, id FROM relay_cursors WHERE source = ?) ORDER BY id LIMIT ?)",
                Timestamp.from(cutoff), table, limit);
    }
}
