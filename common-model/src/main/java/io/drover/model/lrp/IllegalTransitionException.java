package io.drover.model.lrp;

/**
 * A lifecycle operation that the transition table (SPEC 3.2) forbids, or one aimed at a record owned by another
 * incarnation. Callers treat it as a decision, not a failure: the rep destroys its container, the converger skips the
 * action. Never retried.
 */
public class IllegalTransitionException extends RuntimeException {

    private final ActualLrpKey key;

    public IllegalTransitionException(ActualLrpKey key, String message) {
        super(key + ": " + message);
        this.key = key;
    }

    public ActualLrpKey key() {
        return key;
    }
}
