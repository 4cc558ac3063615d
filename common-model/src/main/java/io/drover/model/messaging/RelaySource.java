package io.drover.model.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One relayed table, read in cursor order {@code (tx_id, id)}: the outbox (commands, any topic, each with its message
 * type) and {@code lrp_events} (audit rows, each also a lifecycle event with its event type). A row is
 * <em>settled</em> when no transaction that could still commit a row before it is running
 * ({@code tx_id < pg_snapshot_xmin(pg_current_snapshot())}); only settled rows may be relayed and passed by the cursor,
 * so a transaction that commits late is never skipped.
 */
enum RelaySource {

    OUTBOX("outbox", Topics.MESSAGE_TYPE_HEADER, next("outbox", "r.topic, r.message_key", "message_type",
            "created_at", "")),

    EVENTS("lrp_events", Topics.EVENT_TYPE_HEADER, next("lrp_events", "'" + Topics.LIFECYCLE_EVENTS
            + "', r.process_guid", "event_type", "at", " AND r.payload IS NOT NULL"));

    /**
     * The settled rows after the cursor, at most a limit, and after them the first row that is not settled (its
     * position and time alone), if any: that one says that committed rows wait behind an older transaction. Rows not
     * settled are never read beyond it, so a relay that looks again every few milliseconds while a transaction holds
     * rows back reads one index entry for them, not a batch of rows it cannot pass (at 1,000,000 instances it read
     * three rows for every event it sent). Both halves see one xmin, the statement's.
     */
    private static String next(String table, String topicAndKey, String type, String at, String relayed) {
        return """
                WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
                (SELECT r.tx_id::text, r.id, %2$s, r.payload, r.%3$s, true, r.%4$s, (SELECT xmin FROM h)::text
                 FROM %1$s r WHERE (r.tx_id, r.id) > (?::xid8, ?) AND r.tx_id < (SELECT xmin FROM h)%5$s
                 ORDER BY r.tx_id, r.id LIMIT ?)
                UNION ALL
                (SELECT r.tx_id::text, r.id, NULL, NULL, NULL, NULL, false, r.%4$s, (SELECT xmin FROM h)::text
                 FROM %1$s r WHERE (r.tx_id, r.id) >= ((SELECT xmin FROM h), 0::bigint)
                 AND (r.tx_id, r.id) > (?::xid8, ?)%5$s ORDER BY r.tx_id, r.id LIMIT 1)"""
                .formatted(table, topicAndKey, type, at, relayed);
    }

    private final String name;
    private final String typeHeader;
    private final String next;

    RelaySource(String name, String typeHeader, String next) {
        this.name = name;
        this.typeHeader = typeHeader;
        this.next = next;
    }

    String nextStatement() {
        return next;
    }

    String sourceName() {
        return name;
    }

    /** The record header a row's type goes out in: commands' message type, events' event type. */
    String typeHeader() {
        return typeHeader;
    }

    RelayCursor cursor(JdbcTemplate jdbc) {
        return jdbc.queryForObject("SELECT tx_id::text, id FROM relay_cursors WHERE source = ?",
                (rs, i) -> new RelayCursor(rs.getString(1), rs.getLong(2)), name);
    }

    void advance(JdbcTemplate jdbc, RelayCursor to) {
        jdbc.update("UPDATE relay_cursors SET tx_id = ?::xid8, id = ? WHERE source = ?", to.txId(), to.id(), name);
    }

    /**
     * The next rows after {@code cursor}: the settled ones, and whether committed rows wait behind an older transaction
     * (named by the snapshot's xmin: the oldest transaction still running).
     */
    Batch next(JdbcTemplate jdbc, RelayCursor cursor, int limit) {
        List<Row> settled = new ArrayList<>();
        String[] heldBackBy = { null };
        jdbc.query(next, rs -> {
            if (rs.getBoolean(7)) {
                settled.add(new Row(new RelayCursor(rs.getString(1), rs.getLong(2)), rs.getString(3), rs.getString(4),
                        rs.getBytes(5), rs.getString(6), rs.getTimestamp(8).toInstant()));
            } else if (heldBackBy[0] == null) {
                heldBackBy[0] = rs.getString(9);
            }
        }, cursor.txId(), cursor.id(), limit, cursor.txId(), cursor.id());
        return new Batch(this, settled, heldBackBy[0]);
    }

    /** How many rows wait after the cursor, settled or not. */
    long backlog(JdbcTemplate jdbc) {
        RelayCursor cursor = cursor(jdbc);
        return jdbc.queryForObject("SELECT count(*) FROM " + name + " WHERE (tx_id, id) > (?::xid8, ?)"
                + (this == EVENTS ? " AND payload IS NOT NULL" : ""), Long.class, cursor.txId(), cursor.id());
    }

    /** The age source of the oldest row not relayed yet: its creation time column. */
    String oldestWaitingSql() {
        String at = this == EVENTS ? "at" : "created_at";
        return "SELECT min(" + at + ") FROM (SELECT " + at + " FROM " + name + " WHERE (tx_id, id) > "
                + "(SELECT tx_id, id FROM relay_cursors WHERE source = '" + name + "')"
                + (this == EVENTS ? " AND payload IS NOT NULL" : "") + " ORDER BY tx_id, id LIMIT 1) w";
    }

    /**
     * Where the relay stands: both cursors, and whether rows wait after them. Equal readings some seconds apart while
     * rows wait mean no relay is making progress.
     */
    static String progress(JdbcTemplate jdbc) {
        return jdbc.queryForObject(OutboxRelay.PROGRESS, String.class);
    }

    /** A position in a relayed table. */
    record RelayCursor(String txId, long id) {
    }

    /** One relayable row: its position, where it goes, and its type (null: none), sent as its source's header. */
    record Row(RelayCursor position, String topic, String key, byte[] payload, String type, Instant writtenAt) {
    }

    /**
     * The settled rows read in one go; {@code heldBackBy}, when more committed rows wait for an older transaction, is
     * the oldest transaction still running (the snapshot's xmin), else null.
     */
    record Batch(RelaySource source, List<Row> rows, String heldBackBy) {

        RelayCursor end() {
            return rows.get(rows.size() - 1).position();
        }

        /** When the oldest row of the batch was written. */
        Instant oldest() {
            return rows.stream().map(Row::writtenAt).min(Instant::compareTo).orElseThrow();
        }
    }
}
