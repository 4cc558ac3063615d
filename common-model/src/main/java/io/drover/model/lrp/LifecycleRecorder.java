package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
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
 * Writes what a lifecycle transaction changed, in that transaction: the actual LRP records (versioned), then one
 * {@code lrp_events} row per visible change, which is both the audit trail and the lifecycle event (its payload is the
 * Kafka value, relayed from the row itself), then the commands (start, stop, auction results) into the outbox.
 */
class LifecycleRecorder {

    private static final String AUDIT = "INSERT INTO lrp_events (entity, process_guid, instance_index, event_type, "
            + "from_state, to_state, reason, actor_service, actor_cell_id, version, at, event_id, payload) "
            + "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";

    private final ActualLrpStore store;
    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;

    LifecycleRecorder(ActualLrpStore store, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids,
            CrashRestartPolicy policy) {
        this.store = store;
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.clock = clock;
        this.ids = ids;
        this.policy = policy;
    }

    /** Writes the records, then the events and commands; desired LRP entities must be flushed already. */
    void write(ChangeLog changes, Actor actor) {
        store.insert(changes.inserts);
        store.update(changes.updates);
        store.delete(changes.deletes);
        store.holdUnchanged(changes.unchanged.stream()
                .filter(l -> !changes.updates.contains(l) && !changes.deletes.contains(l)).toList());
        changes.afterWrite.forEach(Runnable::run);
        if (changes.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<AuditRow> audit = new ArrayList<>(changes.desired.size() + changes.actual.size());
        for (ChangeLog.DesiredChange c : changes.desired) {
            DesiredLrpSnapshot after = c.after() == null ? null : c.after().get();
            DesiredLrpSnapshot any = after != null ? after : c.before();
            audit.add(new AuditRow("desired", any.definition().processGuid(), null, c.type(), null, null, c.reason(),
                    any.modificationTag().index(), actor, event(c.type(), c.before(), after, now)));
        }
        for (ChangeLog.ActualChange c : changes.actual) {
            ActualLrpSnapshot after = c.after() == null ? null : c.after().snapshot(policy);
            ActualLrpSnapshot any = after != null ? after : c.before();
            audit.add(new AuditRow("actual", any.processGuid(), any.index(), c.type(),
                    c.before() == null ? null : c.before().state().name(), after == null ? null : after.state().name(),
                    c.reason(), any.modificationTag().index(), c.actor() == null ? actor : c.actor(),
                    c.published() ? event(c.type(), c.before(), after, now) : Event.NONE));
        }
        writeAudit(audit, now);
        outbox.append(changes.commands);
    }

    private Event event(String type, Object before, Object after, Instant now) {
        UUID id = ids.get();
        return new Event(id, LifecycleEvent.encode(id, type, before, after, now));
    }

    private void writeAudit(List<AuditRow> rows, Instant now) {
        Timestamp at = Timestamp.from(now);
        jdbc.batchUpdate(AUDIT, rows, 1000, (ps, r) -> {
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
            ps.setString(8, r.actor().service());
            ps.setString(9, r.actor().cellId());
            ps.setLong(10, r.version());
            ps.setTimestamp(11, at);
            ps.setObject(12, r.event().id());
            ps.setBytes(13, r.event().payload());
        });
        outbox.wakeRelayAfterCommit();
    }

    /** The lifecycle event an audit row carries; {@link #NONE} for a row that is only audit. */
    private record Event(UUID id, byte[] payload) {
        static final Event NONE = new Event(null, null);
    }

    private record AuditRow(String entity, String processGuid, Integer index, String type, String from, String to,
            String reason, long version, Actor actor, Event event) {
    }
}
