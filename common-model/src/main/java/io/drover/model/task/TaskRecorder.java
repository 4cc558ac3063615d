package io.drover.model.task;

import io.drover.model.lrp.Actor;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Writes what a task transaction changed, in that transaction, exactly as the actual LRP lifecycle records its changes:
 * the tasks (versioned), then one {@code lrp_events} row per visible change (entity {@code task}, keyed by task_guid),
 * which is both the audit trail and the lifecycle event relayed to Kafka, then the commands into the outbox.
 */
final class TaskRecorder {

    private static final String AUDIT = "INSERT INTO lrp_events (entity, process_guid, instance_index, event_type, "
            + "from_state, to_state, reason, actor_service, actor_cell_id, version, at, event_id, payload) "
            + "VALUES ('task',?,?,?,?,?,?,?,?,?,?,?,?)";

    private final TaskStore store;
    private final JdbcTemplate jdbc;
    private final Outbox outbox;
    private final Clock clock;
    private final Supplier<UUID> ids;

    TaskRecorder(TaskStore store, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids) {
        this.store = store;
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.clock = clock;
        this.ids = ids;
    }

    void write(TaskChanges changes, Actor actor) {
        store.insert(changes.inserts);
        store.update(changes.updates);
        store.delete(changes.deletes);
        changes.afterWrite.forEach(Runnable::run);
        if (!changes.events.isEmpty()) {
            writeAudit(changes, actor, clock.instant());
        }
        outbox.append(changes.commands);
    }

    private void writeAudit(TaskChanges changes, Actor actor, Instant now) {
        Timestamp at = Timestamp.from(now);
        jdbc.batchUpdate(AUDIT, changes.events, 1000, (ps, c) -> {
            TaskSnapshot after = c.after() == null ? null : c.after().snapshot();
            TaskSnapshot any = after != null ? after : c.before();
            Actor by = c.actor() == null ? actor : c.actor();
            UUID eventId = ids.get();
            ps.setString(1, any.taskGuid());
            ps.setNull(2, Types.INTEGER);
            ps.setString(3, c.type());
            ps.setString(4, c.before() == null ? null : c.before().state().name());
            ps.setString(5, after == null ? null : after.state().name());
            ps.setString(6, c.reason());
            ps.setString(7, by.service());
            ps.setString(8, by.cellId());
            ps.setLong(9, any.modificationTag().index());
            ps.setTimestamp(10, at);
            ps.setObject(11, eventId);
            ps.setBytes(12, LifecycleEvent.encode(eventId, c.type(), c.before(), after, now));
        });
        outbox.wakeRelayAfterCommit();
    }
}
