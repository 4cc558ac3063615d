package io.drover.verify.check.linear;

/**
 * A sequential specification: the initial state and one step. States must have value equality (records), so that the
 * search can tell a configuration it has seen.
 */
public interface Model<S, I, O> {

    S init();

    /** The state after {@code input} returned {@code output} in {@code state}; null when that cannot happen. */
    S step(S state, I input, O output);

    /** One line for a report. */
    default String describe(I input, O output) {
        return input + " -> " + output;
    }
}
