package io.drover.rep.writes;

import io.drover.model.jdbc.StorableText;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskLifecycle;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How one item ends that the database refused even alone, once the {@link GroupCommit} split its batch down to it: a
 * write that would fail the same way on every pass must end now, with a reason, and be logged by name. A task's
 * completion is stored as failed, "result could not be stored: <the database's error>" (the cell's report is lost, the
 * task is not); any other write is {@link Outcome.Kind#REJECTED}, which its cell already handles as a write the model
 * turned down (a claim not made, a start or crash not recorded), and which the sync and the converger repair.
 */
final class PoisonedItem {

    private static final Logger log = LoggerFactory.getLogger(PoisonedItem.class);

    /** The start of the failure reason of a task whose completion the database refused. */
    static final String UNSTORABLE_RESULT = "result could not be stored";
    private static final int MAX_CAUSE_LENGTH = 200;

    private final TaskLifecycle tasks;
    private final Actor actor;

    PoisonedItem(TaskLifecycle tasks, Actor actor) {
        this.tasks = tasks;
        this.actor = actor;
    }

    /** The outcome of {@code item} (of {@code kind}, under {@code key}), which the database refused with {@code failure}. */
    Outcome end(String kind, Object key, Object item, RuntimeException failure) {
        String cause = cause(failure);
        if (item instanceof TaskCompletion completion && key instanceof String guid) {
            Outcome failed = tasks.complete(Map.of(guid, TaskCompletion.failed(completion.cellId(),
                    UNSTORABLE_RESULT + ": " + cause)), actor).get(guid);
            log.warn("group-commit-item-refused kind={} key={} cell={} ending=completed-failed outcome={} error=\"{}\"",
                    kind, key, completion.cellId(), failed.kind(), cause, failure);
            return failed;
        }
        log.warn("group-commit-item-refused kind={} key={} ending=rejected error=\"{}\"", kind, key, cause, failure);
        return Outcome.rejected("could not be stored: " + cause);
    }

    /** The innermost message of {@code failure}, its first line, short and itself storable. */
    static String cause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage().strip();
        int newline = message.indexOf('\n');
        String line = (newline < 0 ? message : message.substring(0, newline)).strip();
        // PostgreSQL's errors start with their severity
        return StorableText.of(line.startsWith("ERROR: ") ? line.substring("ERROR: ".length()) : line,
                MAX_CAUSE_LENGTH);
    }
}
