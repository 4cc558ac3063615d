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
import io.drover.model.lrp.RollRequest;
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
        Map<ActualLrpKey, Integer> orphans = slots.orphanTwins(orphansPerTick);
        if (!orphans.isEmpty()) {
            actuals.releaseDeploymentTwins(orphans, "no deployment keeps it any more", ACTOR);
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
                List<Slot> read = byLrp.getOrDefault(d.processGuid(), List.of());
                steps.add(d, lrp.domain(), read, Rollout.step(new Rollout.Input(d.state(), d.toVersion(),
                        d.strategy(), d.promoted(), d.progressAt(), lrp.instances(), read, clock.instant())));
            }
        }
        steps.apply();
        return active.size();
    }

    /**
     * The steps of one tick, gathered so that the rolls to one version are one lifecycle call for all LRPs. Every write
     * is guarded by what the tick read: a roll only while the record is at the row version read and the deployment
     * still RUNNING, a twin's release only while its slot's record still runs the target version.
     */
    private final class Steps {

        private final Map<ActualLrpKey, Integer> freed = new java.util.LinkedHashMap<>();
        private final Map<Integer, Map<ActualLrpKey, RollRequest>> surges = new TreeMap<>();
        private final Map<Integer, Map<ActualLrpKey, RollRequest>> replaces = new TreeMap<>();
        private final List<Runnable> creates = new ArrayList<>();
        private final List<Runnable> verdicts = new ArrayList<>();

        void add(Deployment d, String domain, List<Slot> read, Step step) {
            String guid = d.processGuid();
            Map<Integer, Slot> byIndex = new java.util.HashMap<>();
            read.forEach(s -> byIndex.put(s.index(), s));
            step.removeTwins().forEach(i -> freed.put(ActualLrpKey.of(guid, i), d.toVersion()));
            step.surge().forEach(i -> surges.computeIfAbsent(d.toVersion(), v -> new java.util.LinkedHashMap<>())
                    .put(ActualLrpKey.of(guid, i), rollOf(d, byIndex.get(i))));
            step.replace().forEach(i -> replaces.computeIfAbsent(d.toVersion(), v -> new java.util.LinkedHashMap<>())
                    .put(ActualLrpKey.of(guid, i), rollOf(d, byIndex.get(i))));
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

        private RollRequest rollOf(Deployment d, Slot slot) {
            return new RollRequest(slot == null ? -1 : slot.recordVersion(), d.id());
        }

        void apply() {
            safely("remove-twins", () -> {
                if (!freed.isEmpty()) {
                    actuals.releaseDeploymentTwins(freed, "new instance healthy", ACTOR);
                }
            });
            creates.forEach(c -> safely("create", c));
            surges.forEach((version, rolls) -> safely("surge", () -> actuals.roll(rolls, version, true,
                    "deployment to definition version " + version, ACTOR)));
            replaces.forEach((version, rolls) -> safely("replace", () -> actuals.roll(rolls, version, false,
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
