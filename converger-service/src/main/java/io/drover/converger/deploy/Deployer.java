package io.drover.converger.deploy;

import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.DeploymentSlots;
import io.drover.model.deployment.Rollout;
import io.drover.model.deployment.Slot;
import io.drover.model.deployment.Step;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One tick of every active deployment, top to bottom: read the deployments, their LRPs' counts and slots (three
 * queries whatever their number), step each with the pure {@link Rollout}, apply the steps (the rolls of all LRPs
 * moving to one version in one lifecycle call), then record the verdicts. Every state it needs is in PostgreSQL, so a new
 * leader resumes where the old one stopped.
 */
class Deployer {

    static final Actor ACTOR = Actor.service("deployer");
    private static final Logger log = LoggerFactory.getLogger(Deployer.class);

    private final DeploymentLifecycle deployments;
    private final DeploymentSlots slots;
    private final ActualLrpLifecycle actuals;
    private final Clock clock;
    private final int orphansPerTick;

    Deployer(DeploymentLifecycle deployments, DeploymentSlots slots, ActualLrpLifecycle actuals, Clock clock,
            int orphansPerTick) {
        this.deployments = deployments;
        this.slots = slots;
        this.actuals = actuals;
        this.clock = clock;
        this.orphansPerTick = orphansPerTick;
    }

    /** Steps every active deployment once; returns how many it stepped. */
    int tick() {
        List<ActualLrpKey> orphans = slots.orphanTwins(orphansPerTick);
        if (!orphans.isEmpty()) {
            actuals.removeDeploymentTwins(orphans, "no deployment keeps it any more", ACTOR);
        }
        List<Deployment> active = deployments.active();
        if (active.isEmpty()) {
            return 0;
        }
        List<String> guids = active.stream().map(Deployment::processGuid).toList();
        Map<String, DeploymentSlots.Desired> desired = slots.desired(guids);
        Map<String, List<Slot>> byLrp = slots.of(guids);
        Steps steps = new Steps();
        for (Deployment d : active) {
            DeploymentSlots.Desired lrp = desired.get(d.processGuid());
            if (lrp != null) {
                steps.add(d, lrp.domain(), Rollout.step(new Rollout.Input(d.state(), d.toVersion(), d.strategy(),
                        d.promoted(), d.progressAt(), lrp.instances(), byLrp.getOrDefault(d.processGuid(), List.of()),
                        clock.instant())));
            }
        }
        steps.apply();
        return active.size();
    }

    /** The steps of one tick, gathered so that the rolls to one version are one lifecycle call for all LRPs. */
    private final class Steps {

        private final List<ActualLrpKey> freed = new ArrayList<>();
        private final Map<Integer, List<ActualLrpKey>> surges = new TreeMap<>();
        private final Map<Integer, List<ActualLrpKey>> replaces = new TreeMap<>();
        private final List<Runnable> creates = new ArrayList<>();
        private final List<Runnable> verdicts = new ArrayList<>();

        void add(Deployment d, String domain, Step step) {
            String guid = d.processGuid();
            step.removeTwins().forEach(i -> freed.add(ActualLrpKey.of(guid, i)));
            step.surge().forEach(i -> surges.computeIfAbsent(d.toVersion(), v -> new ArrayList<>())
                    .add(ActualLrpKey.of(guid, i)));
            step.replace().forEach(i -> replaces.computeIfAbsent(d.toVersion(), v -> new ArrayList<>())
                    .add(ActualLrpKey.of(guid, i)));
            if (!step.create().isEmpty()) {
                creates.add(() -> actuals.createMissing(guid, domain, step.create(), "deployment " + d.id(), ACTOR));
            }
            if (step.verdict() != Step.Verdict.CONTINUE || step.progressAt().isAfter(d.progressAt())) {
                verdicts.add(() -> {
                    Deployment after = deployments.decided(d, step, ACTOR);
                    if (after.state() != d.state()) {
                        log.info("deployment-{} process_guid={} id={} to_version={} reason=\"{}\"",
                                after.state().name().toLowerCase(java.util.Locale.ROOT), guid, d.id(), d.toVersion(),
                                step.reason());
                    }
                });
            }
        }

        void apply() {
            safely("remove-twins", () -> {
                if (!freed.isEmpty()) {
                    actuals.removeDeploymentTwins(freed, "new instance healthy", ACTOR);
                }
            });
            creates.forEach(c -> safely("create", c));
            surges.forEach((version, keys) -> safely("surge", () -> actuals.roll(keys, version, true,
                    "deployment to definition version " + version, ACTOR)));
            replaces.forEach((version, keys) -> safely("replace", () -> actuals.roll(keys, version, false,
                    "deployment to definition version " + version, ACTOR)));
            verdicts.forEach(v -> safely("verdict", v));
        }

        /** A conflict, a lost race or a lost leadership skips that part: the next tick, if leader, reads again. */
        private void safely(String what, Runnable action) {
            try {
                action.run();
            } catch (RuntimeException e) {
                log.info("deployer-{}-skipped cause={}", what, e.toString());
            }
        }
    }
}
