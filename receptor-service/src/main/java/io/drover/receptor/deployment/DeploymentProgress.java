package io.drover.receptor.deployment;

import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.DeploymentSlots;
import io.drover.model.deployment.Rollout;
import io.drover.model.deployment.Slot;
import io.drover.model.deployment.Step;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * Deployments with their counts now (desired, updated, healthy, unhealthy), as the step function sees the LRP's slots:
 * what the API answers and what the dashboard's LRP page shows.
 */
@Component
public class DeploymentProgress {

    private final DeploymentLifecycle deployments;
    private final DeploymentSlots slots;
    private final Clock clock;

    DeploymentProgress(DeploymentLifecycle deployments, DeploymentSlots slots, Clock clock) {
        this.deployments = deployments;
        this.slots = slots;
        this.clock = clock;
    }

    /** The LRP's latest {@code limit} deployments, newest first; empty when there is no such LRP. */
    public Optional<List<Progress>> latest(String processGuid, int limit) {
        Map<String, DeploymentSlots.Desired> desired = slots.desired(List.of(processGuid));
        if (desired.isEmpty()) {
            return Optional.empty();
        }
        List<Slot> now = slots.of(List.of(processGuid)).getOrDefault(processGuid, List.of());
        int instances = desired.get(processGuid).instances();
        return Optional.of(deployments.of(processGuid, limit).stream().map(d -> progress(d, instances, now)).toList());
    }

    /** One deployment with its counts now. */
    public Progress of(Deployment d) {
        Map<String, DeploymentSlots.Desired> desired = slots.desired(List.of(d.processGuid()));
        int instances = desired.isEmpty() ? 0 : desired.get(d.processGuid()).instances();
        return progress(d, instances, slots.of(List.of(d.processGuid())).getOrDefault(d.processGuid(), List.of()));
    }

    private Progress progress(Deployment d, int instances, List<Slot> now) {
        Step step = Rollout.step(new Rollout.Input(d.state(), d.toVersion(), d.strategy(), d.promoted(),
                d.progressAt(), instances, now, clock.instant()));
        return new Progress(d, step.counts());
    }

    /** A deployment and its counts now. */
    public record Progress(Deployment deployment, Step.Counts counts) {
    }
}
