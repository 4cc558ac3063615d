package io.drover.model.retention;

import java.sql.Timestamp;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Deletes rows past their retention, a bounded batch per call (one short statement that never holds locks for long):
 * {@code lrp_events} audit rows recorded before a cutoff, and {@code outbox} rows relayed before a cutoff. Unsent
 * outbox rows are never touched.
 */
public class Pruning {

    private final JdbcTemplate jdbc;

    public Pruning(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Deletes up to {@code limit} audit rows recorded before {@code cutoff}, oldest first; returns how many. */
    public int deleteEventsBefore(Instant cutoff, int limit) {
        return jdbc.update("DELETE FROM lrp_events WHERE id IN (SELECT id FROM lrp_events WHERE at < ? ORDER BY id "
                + "LIMIT ?)", Timestamp.from(cutoff), limit);
    }

    /** Deletes up to {@code limit} outbox rows sent before {@code cutoff}, oldest first; returns how many. */
    public int deleteSentOutboxBefore(Instant cutoff, int limit) {
        return jdbc.update("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE sent_at < ? ORDER BY id "
                + "LIMIT ?)", Timestamp.from(cutoff), limit);
    }
}
