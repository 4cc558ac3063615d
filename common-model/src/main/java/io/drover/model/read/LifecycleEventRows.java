package io.drover.model.read;

import io.drover.model.messaging.EventPosition;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The lifecycle events ({@code lrp_events} rows with a payload) in stream order, {@code (tx_id, id)}: what a stream
 * resumes from. Only <em>settled</em> rows are handed out, those whose transaction id is below the snapshot's xmin
 * ({@code tx_id < pg_snapshot_xmin(pg_current_snapshot())}): no transaction that could still commit a row before them
 * is running. This is the relay's rule (docs/architecture.md, "Transactional outbox"), and what makes a position safe
 * to resume from: a transaction that began earlier and commits later writes rows before the rows already handed out,
 * and without the rule a client that saw those would never get them. Settled rows are a prefix of the order (every
 * transaction still running has an id at or above the xmin), so "after a position" never gains a row behind a
 * client's back.
 */
public class LifecycleEventRows {

    private static final String AFTER = """
            WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
            SELECT e.tx_id::text, e.id, e.event_type, e.process_guid, e.payload, e.at, e.tx_id < h.xmin
            FROM lrp_events e, h WHERE (e.tx_id, e.id) > (?::xid8, ?) AND e.payload IS NOT NULL
            ORDER BY e.tx_id, e.id LIMIT ?""";

    private static final String SETTLED = "e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) AND e.payload IS NOT NULL";

    private final JdbcTemplate jdbc;

    public LifecycleEventRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * At most {@code limit} settled events after {@code position}, in order; {@code heldBack} when committed events
     * after them wait for an older transaction still running (look again soon: its end may write nothing that wakes
     * anyone).
     */
    public Page after(EventPosition position, int limit) {
        List<LifecycleEventRow> rows = new ArrayList<>();
        boolean[] heldBack = { false };
        jdbc.query(AFTER, rs -> {
            if (rs.getBoolean(7) && !heldBack[0]) {
                rows.add(new LifecycleEventRow(EventPosition.of(rs.getString(1), rs.getLong(2)), rs.getString(3),
                        rs.getString(4), rs.getBytes(5), rs.getTimestamp(6).toInstant()));
            } else {
                heldBack[0] = true;
            }
        }, position.txIdText(), position.id(), limit);
        return new Page(rows, heldBack[0]);
    }

    /** When the event at {@code position} was written; empty when there is no such event (any more). */
    public Optional<Instant> writtenAt(EventPosition position) {
        return jdbc.query("SELECT at FROM lrp_events WHERE id = ? AND tx_id = ?::xid8 AND payload IS NOT NULL",
                (rs, i) -> rs.getTimestamp(1).toInstant(), position.id(), position.txIdText()).stream().findFirst();
    }

    /** The last settled event: a stream that starts here gets every event committed from now on. */
    public EventPosition end() {
        return jdbc.query("SELECT e.tx_id::text, e.id FROM lrp_events e WHERE " + SETTLED
                + " ORDER BY e.tx_id DESC, e.id DESC LIMIT 1", (rs, i) -> EventPosition.of(rs.getString(1),
                rs.getLong(2))).stream().findFirst().orElse(EventPosition.START);
    }

    /** Where a stream starts to get the last {@code count} settled events first. */
    public EventPosition beforeLast(int count) {
        return jdbc.query("SELECT l.tx_id::text, l.id FROM (SELECT e.tx_id, e.id FROM lrp_events e WHERE " + SETTLED
                + " ORDER BY e.tx_id DESC, e.id DESC LIMIT ?) l ORDER BY l.tx_id, l.id LIMIT 1",
                (rs, i) -> EventPosition.of(rs.getString(1), rs.getLong(2)).justBefore(), count).stream()
                .findFirst().orElseGet(this::end);
    }

    /**
     * Where a stream starts to get the events written at or after {@code since} (by the writer's clock; the first of
     * them in stream order, so an event written a moment before it may come too).
     */
    public EventPosition since(Instant since) {
        return jdbc.query("SELECT e.tx_id::text, e.id FROM lrp_events e WHERE e.at >= ? AND e.payload IS NOT NULL "
                + "ORDER BY e.tx_id, e.id LIMIT 1", (rs, i) -> EventPosition.of(rs.getString(1), rs.getLong(2))
                .justBefore(), Timestamp.from(since)).stream().findFirst().orElseGet(this::end);
    }

    /**
     * Settled events in order; {@code heldBack}: more committed events wait behind a transaction still running.
     */
    public record Page(List<LifecycleEventRow> rows, boolean heldBack) {

        /** The position after this page's events, or {@code from} when it has none. */
        public EventPosition end(EventPosition from) {
            return rows.isEmpty() ? from : rows.get(rows.size() - 1).position();
        }
    }
}
