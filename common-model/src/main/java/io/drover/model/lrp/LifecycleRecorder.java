package io.drover.model.lrp;

import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.ConvergenceRequested;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxMessage;
import io.drover.model.messaging.Topics;
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
 * Kafka value, relayed from the row itself), then the commands (start, stop, auction results, and one convergence
 * request for a transaction that changed or removed a desired LRP or removed an instance) into the outbox.
 */
class LifecycleRecorder {

    private final ActualLrpStore store;
    private final AuditLog audit;
    private final Outbox outbox;
    private final Clock clock;
    private final Supplier<UUID> ids;
    private final CrashRestartPolicy policy;

    LifecycleRecorder(ActualLrpStore store, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids,
            CrashRestartPolicy policy) {
        this.store = store;
        this.audit = new AuditLog(jdbc, outbox);
        this.outbox = outbox;
        this.clock = clock;
        this.ids = ids;
        this.policy = policy;
    }

    /** Writes the records, then the events and commands; the desired LRP changes noted are written already. */
    void write(ChangeLog changes, Actor actor) {
        store.insert(changes.inserts);
        store.requireNoYoungerEvents(changes.inserts.stream().map(ActualLrp::key)
                .filter(changes.filledAfterAWait::contains).toList());
        store.update(changes.updates);
        store.delete(changes.deletes);
        store.holdUnchanged(changes.unchanged.stream()
                .filter(l -> !changes.updates.contains(l) && !changes.deletes.contains(l)).toList());
        if (changes.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<AuditLog.Entry> rows = new ArrayList<>(changes.desired.size() + changes.actual.size());
        for (ChangeLog.DesiredChange c : changes.desired) {
            DesiredLrpSnapshot after = c.after() == null ? null : c.after().get();
            DesiredLrpSnapshot any = after != null ? after : c.before();
            Event event = event(c.type(), c.before(), after, now);
            rows.add(new AuditLog.Entry("desired", any.definition().processGuid(), null, c.type(), null, null,
                    c.reason(), any.modificationTag().index(), actor.service(), actor.cellId(), event.id(),
                    event.payload()));
        }
        for (ChangeLog.ActualChange c : changes.actual) {
            ActualLrpSnapshot after = c.after() == null ? null : c.after().snapshot(policy);
            ActualLrpSnapshot any = after != null ? after : c.before();
            Actor by = c.actor() == null ? actor : c.actor();
            Event event = c.published() ? event(c.type(), c.before(), after, now) : Event.NONE;
            rows.add(new AuditLog.Entry("actual", any.processGuid(), any.index(), c.type(),
                    c.before() == null ? null : c.before().state().name(), after == null ? null : after.state().name(),
                    c.reason(), any.modificationTag().index(), by.service(), by.cellId(), event.id(), event.payload()));
        }
        audit.append(rows, now);
        outbox.append(commands(changes, rows));
    }

    /**
     * The commands the changes cause, built once the rows are written (auction results carry the records' new
     * versions): stop requests, auction results (one per cell), start requests (one per LRP and reason), and one
     * convergence request per transaction, named by its first change that asks for a pass.
     */
    private List<OutboxMessage> commands(ChangeLog changes, List<AuditLog.Entry> rows) {
        List<OutboxMessage> commands = new ArrayList<>();
        changes.stops.forEach(s -> commands.add(OutboxMessage.of(Topics.STOP_REQUESTS, s.cellId(),
                new LrpStopRequested(s.messageId(), s.cellId(), s.key().processGuid(), s.key().index(), s.instanceGuid(),
                        s.reason()))));
        changes.placements.forEach((cell, placed) -> commands.add(OutboxMessage.of(Topics.AUCTION_RESULTS, cell,
                new LrpsPlaced(ids.get(), cell, changes.auctionId, placed.stream().map(p -> new LrpsPlaced.Placement(
                        p.lrp().processGuid(), p.lrp().index(), p.lrp().epoch(), p.lrp().version(),
                        p.lrp().definitionVersion(), p.lrpEpoch())).toList()))));
        changes.auctions.forEach((r, indices) -> commands.add(OutboxMessage.of(Topics.START_REQUESTS,
                r.processGuid(), new LrpStartRequested(ids.get(), r.processGuid(), r.domain(), indices, r.reason()))));
        rows.stream().filter(r -> ConvergenceRequested.isAskedBy(r.type())).findFirst().ifPresent(r -> commands.add(
                OutboxMessage.of(Topics.CONVERGENCE_REQUESTS, r.key(), new ConvergenceRequested(ids.get(), r.key(),
                        r.type()))));
        return commands;
    }

    private Event event(String type, Object before, Object after, Instant now) {
        UUID id = ids.get();
        return new Event(id, LifecycleEvent.encode(id, type, before, after, now));
    }

    /** The lifecycle event an audit row carries; {@link #NONE} for a row that is only audit. */
    private record Event(UUID id, byte[] payload) {
        static final Event NONE = new Event(null, null);
    }
}
