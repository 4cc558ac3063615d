package io.drover.model.messaging;

import java.sql.Timestamp;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Garbage collection of the relayed tables: deletes old rows, but only rows the relay has passed already, so a row
 * waiting for Kafka (an outage longer than the retention) is never lost. One call deletes at most {@code limit} rows in
 * one short statement.
 *
 * <p>Audit rows go as a prefix of the stream order {@code (tx_id, id)}, never from the middle of it: a client resumes
 * the event stream after a position ({@link EventPosition}) and may do so as long as the event at
 * that position is still there, which holds only if no row after it was deleted before it. Stream order and write time
 * disagree by at most the length of a transaction (a row written late in a long transaction comes before rows that
 * shorter ones wrote meanwhile), so the prefix ends at the first row still within the retention.
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

    /**
     * Audit rows ({@code lrp_events}) written before {@code cutoff} and relayed, from the start of the stream order up
     * to the first row that is not.
     */
    public int deleteEventsBefore(Instant cutoff, int limit) {
        return jdbc.update("""
                WITH head AS (SELECT tx_id, id, at FROM lrp_events
                              WHERE (tx_id, id) <= (SELECT tx_id, id FROM relay_cursors WHERE source = 'lrp_events')
                              ORDER BY tx_id, id LIMIT ?),
                     kept AS (SELECT tx_id, id FROM head WHERE at >= ? ORDER BY tx_id, id LIMIT 1)
                DELETE FROM lrp_events e USING head h
                WHERE e.id = h.id AND NOT EXISTS (SELECT 1 FROM kept k WHERE (h.tx_id, h.id) >= (k.tx_id, k.id))""",
                limit, Timestamp.from(cutoff));
    }

    private int delete(RelaySource source, String createdAt, Instant cutoff, int limit) {
        String table = source.sourceName();
        return jdbc.update("DELETE FROM " + table + " WHERE id IN (SELECT id FROM " + table + " WHERE " + createdAt
                + " < ? AND (tx_id, id) <= (SELECT tx_id, id FROM relay_cursors WHERE source = ?) ORDER BY id LIMIT ?)",
                Timestamp.from(cutoff), table, limit);
    }
}
