package io.drover.receptor.ui;

import io.drover.model.deployment.Deployment;
import io.drover.receptor.deployment.DeploymentProgress;
import java.time.Instant;

/**
 * One deployment's row on the LRP page: its state, the definition versions it moves between, its progress (instances
 * updated of those desired, healthy, unhealthy), who started it and when, and why it failed.
 */
record DeploymentLine(String id, String state, int fromVersion, int toVersion, int updated, int desired, int healthy,
        int unhealthy, int percent, String createdBy, String started, String failureReason) {

    static DeploymentLine of(DeploymentProgress.Progress p, Instant now) {
        Deployment d = p.deployment();
        var c = p.counts();
        return new DeploymentLine(d.id().toString(), d.state().name(), d.fromVersion(), d.toVersion(), c.updated(),
                c.desired(), c.healthy(), c.unhealthy(), Display.percent(c.updated(), c.desired()), d.createdBy(),
                Display.ago(d.createdAt(), now) + " ago", d.failureReason());
    }
}
