package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.OutboxMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * What one lifecycle transaction changed, collected while the verbs run and written by {@link LifecycleRecorder} once
 * the entities are flushed (so the audit rows and events carry the new versions).
 */
final class ChangeLog {

    final List<ActualChange> actual = new ArrayList<>();
    final List<DesiredChange> desired = new ArrayList<>();
    final List<OutboxMessage> commands = new ArrayList<>();
    final List<Runnable> afterFlush = new ArrayList<>();

    void actualCreated(ActualLrp lrp, String reason) {
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_CREATED, null, lrp, null, reason));
    }

    void actualChanged(String type, ActualLrpSnapshot before, ActualLrp lrp, String reason) {
        actual.add(new ActualChange(type, before, lrp, null, reason));
    }

    void actualRemoved(ActualLrpSnapshot before, String reason) {
        actual.add(new ActualChange(LifecycleEvent.ACTUAL_LRP_REMOVED, before, null, before, reason));
    }

    void desired(String type, DesiredLrpSnapshot before, DesiredLrp after, String reason) {
        desired.add(new DesiredChange(type, before, after, reason));
    }

    void command(OutboxMessage message) {
        commands.add(message);
    }

    /** Runs once the entities are flushed, e.g. to build a message that carries new versions. */
    void afterFlush(Runnable action) {
        afterFlush.add(action);
    }

    boolean isEmpty() {
        return actual.isEmpty() && desired.isEmpty() && commands.isEmpty();
    }

    record ActualChange(String type, ActualLrpSnapshot before, ActualLrp after, ActualLrpSnapshot removed,
            String reason) {
    }

    record DesiredChange(String type, DesiredLrpSnapshot before, DesiredLrp after, String reason) {
    }
}
