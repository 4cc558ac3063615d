package io.drover.model.task;

import static io.drover.model.task.TaskState.COMPLETED;
import static io.drover.model.task.TaskState.PENDING;
import static io.drover.model.task.TaskState.RESOLVING;
import static io.drover.model.task.TaskState.RUNNING;

/**
 * The one transition table of a task (Diego's task state machine). The requester is a cell (a rep speaking for the
 * cell it runs on) or no cell (a service: the receptor, auctioneer, converger or the callback worker). "same" means the
 * requesting cell is the one the task runs on.
 *
 * <pre>
 * from \ to   PENDING   RUNNING   COMPLETED          RESOLVING   deleted
 * PENDING     any       a cell    no cell            -           -
 * RUNNING     -         same      same or no cell    -           -
 * COMPLETED   -         -         -                  no cell     no cell
 * RESOLVING   -         -         no cell            -           no cell
 * </pre>
 *
 * An exact repeat of a transition that already happened is a no-op decided by the {@link Task} verb before the table
 * is asked; RESOLVING to RESOLVING is forbidden on purpose: it is the lock that lets one resolver own a completion.
 */
public final class TaskTransitions {

    private TaskTransitions() {
    }

    /** Whether a task in {@code from}, on {@code storedCell}, may move to {@code to} for {@code requesterCell}. */
    public static boolean allows(TaskState from, String storedCell, String requesterCell, TaskState to) {
        boolean service = requesterCell == null;
        boolean same = !service && requesterCell.equals(storedCell);
        return switch (from) {
            case PENDING -> switch (to) {
                case PENDING -> true;
                case RUNNING -> !service;
                case COMPLETED -> service;
                case RESOLVING -> false;
            };
            case RUNNING -> switch (to) {
                case RUNNING -> same;
                case COMPLETED -> same || service;
                case PENDING, RESOLVING -> false;
            };
            case COMPLETED -> to == RESOLVING && service;
            case RESOLVING -> to == COMPLETED && service;
        };
    }

    /** Whether a task in {@code from} may be deleted at the request of {@code requesterCell} (null: a service). */
    public static boolean allowsDelete(TaskState from, String requesterCell) {
        return requesterCell == null && (from == COMPLETED || from == RESOLVING);
    }

    static void check(String taskGuid, TaskState from, String storedCell, String requesterCell, TaskState to) {
        if (!allows(from, storedCell, requesterCell, to)) {
            throw new IllegalTaskTransitionException(taskGuid, "cannot go from " + from + describe(storedCell)
                    + " to " + to + " requested by " + (requesterCell == null ? "a service" : "cell " + requesterCell));
        }
    }

    static void checkDelete(String taskGuid, TaskState from) {
        if (!allowsDelete(from, null)) {
            throw new IllegalTaskTransitionException(taskGuid, "cannot be deleted while " + from);
        }
    }

    private static String describe(String cell) {
        return cell == null ? "" : " on " + cell;
    }

    static boolean isLive(TaskState state) {
        return state == PENDING || state == RUNNING;
    }
}
