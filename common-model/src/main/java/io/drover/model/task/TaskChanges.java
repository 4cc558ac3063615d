package io.drover.model.task;

import io.drover.model.lrp.Actor;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.OutboxMessage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one task transaction changed, collected while the verbs run: the tasks to insert, update and delete, the visible
 * changes (each one audit row that is also the lifecycle event) and the commands they cause. Written by the recorder
 * once the verbs are done, tasks first, so events carry the new versions.
 */
final class TaskChanges {

    static final String CREATED = LifecycleEvent.TASK_CREATED;
    static final String CHANGED = LifecycleEvent.TASK_CHANGED;
    static final String REMOVED = LifecycleEvent.TASK_REMOVED;

    final List<Change> events = new ArrayList<>();
    final List<OutboxMessage> commands = new ArrayList<>();
    // Task keeps Object's identity equality: one entry per task object, in the order first touched
    final Set<Task> inserts = new LinkedHashSet<>();
    final Set<Task> updates = new LinkedHashSet<>();
    final Set<Task> deletes = new LinkedHashSet<>();
    /** Updated tasks whose callback columns changed too (the others are written without them). */
    final Set<Task> callbackChanged = new LinkedHashSet<>();
    final List<Runnable> afterWrite = new ArrayList<>();

    void created(Task task, String reason, Actor actor) {
        inserts.add(task);
        events.add(new Change(CREATED, null, task, reason, actor));
    }

    void changed(TaskSnapshot before, Task task, String reason, Actor actor) {
        written(task);
        events.add(new Change(CHANGED, before, task, reason, actor));
    }

    /** A change of internal columns only (a placement in flight): written, not published. */
    void written(Task task) {
        if (!inserts.contains(task)) {
            updates.add(task);
        }
    }

    /** A change that includes the task's callback state. */
    void callbackChanged(TaskSnapshot before, Task task, String reason) {
        changed(before, task, reason, null);
        callbackChanged.add(task);
    }

    void removed(Task task, TaskSnapshot before, String reason, Actor actor) {
        if (!inserts.remove(task)) {
            updates.remove(task);
            deletes.add(task);
        }
        events.add(new Change(REMOVED, before, null, reason, actor));
    }

    void command(OutboxMessage message) {
        commands.add(message);
    }

    /** Runs once the tasks are written, e.g. to build a message that carries new versions. */
    void afterWrite(Runnable action) {
        afterWrite.add(action);
    }

    /**
     * One visible change: {@code after} is null for a removal, {@code actor} null when the transaction's actor made it.
     */
    record Change(String type, TaskSnapshot before, Task after, String reason, Actor actor) {
    }
}
