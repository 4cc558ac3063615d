package io.drover.receptor.deployment;

import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentState;
import io.drover.model.deployment.Step;
import java.time.Instant;
import java.util.UUID;

/**
 * A deployment as the API shows it (SPEC 14): its state, the definition versions it moves between, its strategy
 * (durations in seconds), who started it, its timestamps, why it failed, and its counts now.
 */
record DeploymentResponse(UUID id, String processGuid, DeploymentState state, int fromVersion, int toVersion,
        String maxSurge, String maxUnavailable, long minHealthyTime, long progressDeadline, boolean autoRevert,
        int canary, boolean promoted, UUID reverts, String failureReason, String createdBy, Instant createdAt,
        Instant updatedAt, Instant finishedAt, Step.Counts counts) {

    static DeploymentResponse of(DeploymentProgress.Progress p) {
        Deployment d = p.deployment();
        Step.Counts counts = p.counts();
        return new DeploymentResponse(d.id(), d.processGuid(), d.state(), d.fromVersion(), d.toVersion(),
                d.maxSurge(), d.maxUnavailable(), d.minHealthyTime(), d.progressDeadline(), d.autoRevert(),
                d.canary(), d.promoted(), d.reverts(), d.failureReason(), d.createdBy(), d.createdAt(),
                d.updatedAt(), d.finishedAt(), counts);
    }
}
