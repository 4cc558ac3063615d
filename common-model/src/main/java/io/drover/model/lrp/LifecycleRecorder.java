package io.drover.model.lrp;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.Topics;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Writes what a lifecycle transaction changed: one {@code lrp_events} audit row and one lifecycle event per change,
 * plus the commands (start, stop, auction results), all in the same transaction as the change.
 */
class LifecycleRecorder {

    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;

    LifecycleRecorder(JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids, CrashRestartPolicy policy) {
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.clock = clock;
        this.ids = ids;
        this.policy = policy;
    }

    /** Call after the entity manager was flushed. */
    void record(ChangeLog changes, Actor actor) {
        if (changes.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<AuditRow> audit = new ArrayList<>();
        List<OutboxMessage> messages = new ArrayList<>(changes.commands);
        for (ChangeLog.DesiredChange c : changes.desired) {
            DesiredLrpSnapshot after = c.after() == null ? null : c.after().snapshot();
            String guid = after != null ? after.definition().processGuid() : c.before().definition().processGuid();
            audit.add(new AuditRow("desired", guid, null, c.type(), null, null, c.reason(),
                    after == null ? c.before().modificationTag().index() : after.modificationTag().index()));
            messages.add(event(c.type(), guid, c.before(), after, now));
        }
        for (ChangeLog.ActualChange c : changes.actual) {
            ActualLrpSnapshot after = c.after() == null ? null : c.after().snapshot(policy);
            ActualLrpSnapshot any = after != null ? after : c.before();
            audit.add(new AuditRow("actual", any.processGuid(), any.index(), c.type(),
                    c.before() == null ? null : c.before().state().name(), after == null ? null : after.state().name(),
                    c.reason(), any.modificationTag().index()));
            messages.add(event(c.type(), any.processGuid(), c.before(), after, now));
        }
        writeAudit(audit, actor, now);
        outbox.append(messages);
    }

    private OutboxMessage event(String type, String processGuid, Object before, Object after, Instant now) {
        LifecycleEvent event = new LifecycleEvent(ids.get(), type, before == null ? null : Json.toTree(before),
                after == null ? null : Json.toTree(after), now);
        return OutboxMessage.of(Topics.LIFECYCLE_EVENTS, processGuid, event);
    }

    private void writeAudit(List<AuditRow> rows, Actor actor, Instant now) {
        Timestamp at = Timestamp.from(now);
        jdbc.batchUpdate("INSERT INTO lrp_events (entity, process_guid, instance_index, event_type, from_state, "
                + "to_state, reason, actor_service, actor_cell_id, version, at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                rows, 500, (ps, r) -> {
                    ps.setString(1, r.entity());
                    ps.setString(2, r.processGuid());
                    if (r.index() == null) {
                        ps.setNull(3, Types.INTEGER);
                    } else {
                        ps.setInt(3, r.index());
                    }
                    ps.setString(4, r.type());
                    ps.setString(5, r.from());
                    ps.setString(6, r.to());
                    ps.setString(7, r.reason());
                    ps.setString(8, actor.service());
                    ps.setString(9, actor.cellId());
                    ps.setLong(10, r.version());
                    ps.setTimestamp(11, at);
                });
    }

    private record AuditRow(String entity, String processGuid, Integer index, String type, String from, String to,
            String reason, long version) {
    }
}
