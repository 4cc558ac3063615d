package io.drover.model.task;

import io.drover.model.lrp.Actor;
import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Writes what a task transaction changed, in that transaction, exactly as the actual LRP lifecycle records its changes:
 * the tasks (versioned), then one {@code lrp_events} row per visible change (entity {@code task}, keyed by task_guid),
 * which is both the audit trail and the lifecycle event relayed to Kafka, then the commands into the outbox.
 */
final class TaskRecorder {

    private final TaskStore store;
    private final AuditLog audit;
    private final Outbox outbox;
    private final Clock clock;
    private final Supplier<UUID> ids;

    TaskRecorder(TaskStore store, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids) {
        this.store = store;
        this.audit = new AuditLog(jdbc, outbox);
        this.outbox = outbox;
        this.clock = clock;
        this.ids = ids;
    }

    void write(TaskChanges changes, Actor actor) {
        store.insert(changes.inserts);
        store.update(changes.updates, changes.callbackChanged);
        store.delete(changes.deletes, clock.instant());
        changes.afterWrite.forEach(Runnable::run);
        if (!changes.events.isEmpty()) {
            writeAudit(changes, actor, clock.instant());
        }
        outbox.append(changes.commands);
    }

    private void writeAudit(TaskChanges changes, Actor actor, Instant now) {
        List<AuditLog.Entry> rows = new ArrayList<>(changes.events.size());
        for (TaskChanges.Change c : changes.events) {
            TaskSnapshot after = c.after() == null ? null : c.after().snapshot();
            TaskSnapshot any = after != null ? after : c.before();
            Actor by = c.actor() == null ? actor : c.actor();
            UUID eventId = ids.get();
            rows.add(new AuditLog.Entry("task", any.taskGuid(), null, c.type(),
                    c.before() == null ? null : c.before().state().name(), after == null ? null : after.state().name(),
                    c.reason(), any.modificationTag().index(), by.service(), by.cellId(), eventId,
                    LifecycleEvent.encode(eventId, c.type(), c.before(), after, now)));
        }
        audit.append(rows, now);
    }
}
