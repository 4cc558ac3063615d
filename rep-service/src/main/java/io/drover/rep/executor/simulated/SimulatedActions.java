package io.drover.rep.executor.simulated;

import io.drover.model.lrp.Action;
import java.time.Duration;
import java.util.List;

/**
 * How a simulated cell runs an action tree, abstractly: every {@code run} takes {@code step} and succeeds, except
 * {@code false} (the program), which fails; a download takes no time; {@code serial} adds up and stops at the first
 * failure, {@code parallel} lasts as long as its longest and fails with its first failure, {@code codependent} ends
 * with its first to end, {@code timeout} fails what outlasts it, {@code try} swallows a failure and
 * {@code emit_progress} changes nothing. Pure, so a thousand simulated cells agree on what a tree does.
 */
final class SimulatedActions {

    static final String FAILING_PROGRAM = "false";

    private SimulatedActions() {
    }

    /** How a tree ends: after {@code took}, cleanly or with {@code failure}. */
    record Ending(Duration took, String failure) {

        boolean succeeded() {
            return failure == null;
        }

        static Ending success(Duration took) {
            return new Ending(took, null);
        }
    }

    static Ending run(Action action, Duration step) {
        Action.Kind kind = action == null ? null : action.kind();
        if (kind == null) {
            return new Ending(Duration.ZERO, "invalid action");
        }
        return switch (kind) {
            case RUN -> FAILING_PROGRAM.equals(action.run().path()) ? new Ending(step, "exited with status 1")
                    : Ending.success(step);
            case DOWNLOAD -> Ending.success(Duration.ZERO);
            case SERIAL -> serial(action.serial().actions(), step);
            case PARALLEL -> parallel(action.parallel().actions(), step);
            case CODEPENDENT -> codependent(action.codependent().actions(), step);
            case TIMEOUT -> timeout(run(action.timeout().action(), step), Duration.ofMillis(action.timeout().timeoutMs()));
            case TRY -> Ending.success(run(action.tryAction().action(), step).took());
            case EMIT_PROGRESS -> run(action.emitProgress().action(), step);
        };
    }

    private static Ending serial(List<Action> actions, Duration step) {
        Duration took = Duration.ZERO;
        for (Action a : actions) {
            Ending e = run(a, step);
            took = took.plus(e.took());
            if (!e.succeeded()) {
                return new Ending(took, e.failure());
            }
        }
        return Ending.success(took);
    }

    private static Ending parallel(List<Action> actions, Duration step) {
        Duration took = Duration.ZERO;
        Ending firstFailure = null;
        for (Action a : actions) {
            Ending e = run(a, step);
            took = took.compareTo(e.took()) < 0 ? e.took() : took;
            if (!e.succeeded() && (firstFailure == null || e.took().compareTo(firstFailure.took()) < 0)) {
                firstFailure = e;
            }
        }
        return new Ending(took, firstFailure == null ? null : firstFailure.failure());
    }

    private static Ending codependent(List<Action> actions, Duration step) {
        Ending first = null;
        for (Action a : actions) {
            Ending e = run(a, step);
            if (first == null || e.took().compareTo(first.took()) < 0) {
                first = e;
            }
        }
        return first == null ? Ending.success(Duration.ZERO) : first;
    }

    private static Ending timeout(Ending inner, Duration limit) {
        return inner.took().compareTo(limit) > 0
                ? new Ending(limit, "exceeded " + limit.toMillis() + " ms timeout") : inner;
    }
}
