package io.drover.model.deployment;

/** Where a deployment stands (SPEC 14); the first three are active, at most one per LRP. */
public enum DeploymentState {
    RUNNING, PAUSED, WAITING_FOR_PROMOTION, SUCCESSFUL, FAILED, REVERTED, CANCELLED;

    /** Still moving (or held): the LRP's one active deployment. */
    public boolean isActive() {
        return this == RUNNING || this == PAUSED || this == WAITING_FOR_PROMOTION;
    }
}
