package io.drover.model.deployment;

import java.util.UUID;

/** No such deployment of that desired LRP. */
public class DeploymentNotFoundException extends RuntimeException {

    public DeploymentNotFoundException(String processGuid, UUID id) {
        super("deployment " + id + " of " + processGuid + " not found");
    }
}
