package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.OutboxMessage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What one lifecycle transaction changed, collected while the verbs run: the records to insert, update and delete, the
 * visible changes (each becomes one audit row that is also the lifecycle event) and the commands they cause. Written by
 * the lifecycle once the verbs are done, records first (so events carry the new versions).
 */
final class ChangeLog {

    final List<ActualChange> actual = new ArrayList<>();
    final List<DesiredChange> desired = new ArrayList<>();
    final List<OutboxMessage> commands = new ArrayList<>();
    final List<Runnable> afterWrite = new ArrayList<>();
    // ActualLrp keeps Object's identity equality: one entry per record object, in the order first touched
    final Set<ActualLrp> inserts = new LinkedHashSet<>();
    final Set<ActualLrp> updates = new LinkedHashSet<>();
    final Set<ActualLrp> deletes = new LinkedHashSet<>();
    // noted records: not written, but their version must still hold when the transaction commits
    final Set<ActualLrp> unchanged = new LinkedHashSet<>();

    void actualCreated(ActualLrp lrp, String reason, Actor actor) {
        inserts.add(lrp);
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_CREATED, null, lrp, reason, actor, true));
    }

    /** A change clients see: written, audited and published. */
    void actualChanged(String type, ActualLrpSnapshot before, ActualLrp lrp, String reason, Actor actor) {
        written(lrp);
        actual.add(new ActualChange(type, before, lrp, reason, actor, true));
    }

    /**
     * A decision about a record that changes nothing yet (a stop asked of its cell): audited, so that who asked and why
     * is on record, but not published and not written. The record is held unchanged until the transaction commits, so
     * the audit row never lands after a change that a concurrent transaction made to it.
     */
    void actualNoted(String type, ActualLrpSnapshot now, ActualLrp lrp, String reason, Actor actor) {
        unchanged.add(lrp);
        actual.add(new ActualChange(type, now, lrp, reason, actor, false));
    }

    /** A change of internal columns only (a placement in flight): written, not published. */
    void actualWritten(ActualLrp lrp) {
        written(lrp);
    }

    void actualRemoved(ActualLrp lrp, ActualLrpSnapshot before, String reason, Actor actor) {
        if (!inserts.remove(lrp)) {
            updates.remove(lrp);
            deletes.add(lrp);
        }
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_REMOVED, before, null, reason, actor, true));
    }

    /** A change of a desired LRP entity: its snapshot is taken once the entity is flushed (its version then known). */
    void desired(String type, DesiredLrpSnapshot before, DesiredLrp after, String reason) {
        desired.add(new DesiredChange(type, before, after == null ? null : after::snapshot, reason));
    }

    /** A change of a desired LRP written without the entity: {@code after} carries its new version already. */
    void desired(String type, DesiredLrpSnapshot before, DesiredLrpSnapshot after, String reason) {
        desired.add(new DesiredChange(type, before, () -> after, reason));
    }

    void command(OutboxMessage message) {
        commands.add(message);
    }

    /** Runs once the records are written, e.g. to build a message that carries new versions. */
    void afterWrite(Runnable action) {
        afterWrite.add(action);
    }

    boolean isEmpty() {
        return actual.isEmpty() && desired.isEmpty() && commands.isEmpty();
    }

    private void written(ActualLrp lrp) {
        if (!inserts.contains(lrp)) {
            updates.add(lrp);
        }
    }

    /**
     * One audited change of an actual LRP; {@code after} is null for a removal, {@code actor} null when the
     * transaction's actor made it; {@code published} when it is also a lifecycle event.
     */
    record ActualChange(String type, ActualLrpSnapshot before, ActualLrp after, String reason, Actor actor,
            boolean published) {
    }

    /** One audited change of a desired LRP; {@code after} is null for a removal. */
    record DesiredChange(String type, DesiredLrpSnapshot before, Supplier<DesiredLrpSnapshot> after, String reason) {
    }
}
