package io.drover.model.deployment;

/** A deployment request its state (or the LRP's history) does not allow, e.g. promoting a finished deployment. */
public class IllegalDeploymentException extends RuntimeException {

    public IllegalDeploymentException(String message) {
        super(message);
    }
}
