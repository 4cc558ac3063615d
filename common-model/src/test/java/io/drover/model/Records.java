package io.drover.model;

import io.drover.model.json.Json;
import io.drover.model.messaging.Topics;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** What the lifecycle wrote next to the rows: the audit trail and the outbox, read back with plain SQL. */
final class Records {

    private final JdbcTemplate jdbc;

    Records(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The payloads written for {@code key} on {@code topic}, oldest first: lifecycle events are the audit rows'
     * payloads, every other topic's messages are outbox rows.
     */
    <T> List<T> messages(String topic, String key, Class<T> type) {
        String sql = Topics.LIFECYCLE_EVENTS.equals(topic)
                ? "SELECT convert_from(payload, 'UTF8') FROM lrp_events WHERE ? <> '' AND process_guid = ? "
                        + "AND payload IS NOT NULL ORDER BY id"
                : "SELECT convert_from(payload, 'UTF8') FROM outbox WHERE topic = ? AND message_key = ? ORDER BY id";
        return jdbc.queryForList(sql, String.class, topic, key).stream().map(p -> Json.read(p, type)).toList();
    }

    /** The commands of one message type written for {@code key} on {@code topic}, oldest first. */
    <T> List<T> messages(String topic, String key, String messageType, Class<T> type) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM outbox WHERE topic = ? AND message_key = ? "
                + "AND message_type = ? ORDER BY id", String.class, topic, key, messageType).stream()
                .map(p -> Json.read(p, type)).toList();
    }

    /** The audit trail of one process guid, oldest first. */
    List<Audit> audit(String processGuid) {
        return jdbc.query("SELECT entity, instance_index, event_type, from_state, to_state, reason, actor_service, "
                + "actor_cell_id, version FROM lrp_events WHERE process_guid = ? ORDER BY id",
                (rs, i) -> new Audit(rs.getString(1), (Integer) rs.getObject(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8), (Long) rs.getObject(9)),
                processGuid);
    }

    /** One {@code lrp_events} row. */
    record Audit(String entity, Integer index, String type, String from, String to, String reason, String actorService,
            String actorCell, Long version) {
    }
}
