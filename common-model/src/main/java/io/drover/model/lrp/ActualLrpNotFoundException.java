package io.drover.model.lrp;

/** The operation needs an existing actual LRP and there is none. */
public class ActualLrpNotFoundException extends RuntimeException {

    public ActualLrpNotFoundException(ActualLrpKey key) {
        super("actual LRP not found: " + key);
    }
}
