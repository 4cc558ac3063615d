package io.drover.model.deployment;

/** A deployment request that the deployment's state (or the LRP's history) does not allow, e.g. promoting a finished one. */
public class IllegalDeploymentException extends RuntimeException {

    public IllegalDeploymentException(String message) {
        super(message);
    }
}
