package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.config.TimeOrderedIds;
import io.drover.model.deployment.Amount;
import io.drover.model.deployment.Deployment;
import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.DeploymentSlots;
import io.drover.model.deployment.DeploymentState;
import io.drover.model.deployment.IllegalDeploymentException;
import io.drover.model.deployment.Slot;
import io.drover.model.deployment.Step;
import io.drover.model.deployment.Strategy;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DefinitionVersion;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpNotFoundException;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.OptimisticRetry;
import io.drover.model.lrp.RunAction;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.Topics;
import io.drover.model.read.ActualLrpRows;
import io.drover.model.read.DesiredLrpRows;
import io.drover.test.WithDroverInfrastructure;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Deployments in the model (SPEC 14): definition versions and their history, rolls with twins, verdicts, events. */
@SpringBootTest
@WithDroverInfrastructure
class DeploymentLifecycleIT {

    static final Actor USER = Actor.service("receptor");
    static final Strategy STRATEGY = new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1),
            Duration.ofSeconds(30), true, 0);

    @Autowired
    DeploymentLifecycle deployments;
    @Autowired
    DeploymentSlots slots;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    DesiredLrpRows desiredRows;
    @Autowired
    ActualLrpRows actualRows;
    @Autowired
    CellPresence cells;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    PlatformTransactionManager txManager;
    @Autowired
    Outbox outbox;

    String guid;
    String cell;

    @BeforeEach
    void twoRunningInstances() {
        guid = "dep-" + UUID.randomUUID();
        cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofMinutes(1));
        desired.desire(new DesiredLrpDefinition(guid, "d1", "preloaded:host", 2, action("v1"), null, null, 0, null,
                List.of(8080), 64, 64, 0, 0, null, null, null, null, null), USER);
        run(0, "old-0");
        run(1, "old-1");
    }

    @Test
    void aDeploymentMakesANewVersionCurrentAndNewInstancesRunIt() {
        Deployment d = deployments.start(guid, current -> withAction(current.definition(), "v2"), STRATEGY, "alice",
                USER);

        assertThat(d.state()).isEqualTo(DeploymentState.RUNNING);
        assertThat(d.fromVersion()).isEqualTo(1);
        assertThat(d.toVersion()).isEqualTo(2);
        assertThat(desired.snapshot(guid).orElseThrow().definitionVersion()).isEqualTo(2);
        Map<DefinitionVersion, DesiredLrpRows.DefinitionAt> defs = desiredRows.definitionsAt(List.of(
                new DefinitionVersion(guid, 1), new DefinitionVersion(guid, 2), new DefinitionVersion(guid, 0)));
        assertThat(defs.get(new DefinitionVersion(guid, 1)).definition().action()).isEqualTo(action("v1"));
        assertThat(defs.get(new DefinitionVersion(guid, 2)).definition().action()).isEqualTo(action("v2"));
        assertThat(defs.get(new DefinitionVersion(guid, 2)).id().lrpEpoch())
                .isEqualTo(desired.snapshot(guid).orElseThrow().modificationTag().epoch());
        assertThat(defs).as("a version the history does not keep is served as nothing else")
                .doesNotContainKey(new DefinitionVersion(guid, 0));
        assertThat(jdbc.queryForList("SELECT reason FROM lrp_events WHERE entity = 'deployment' AND process_guid = ?",
                String.class, guid)).singleElement().asString().contains("started by alice");
        assertThat(new Records(jdbc).messages(Topics.LIFECYCLE_EVENTS, guid, LifecycleEvent.class))
                .filteredOn(e -> e.type().equals(DeploymentLifecycle.DEPLOYMENT_CHANGED)).singleElement()
                .satisfies(e -> assertThat(e.after().get("to_version").asInt()).isEqualTo(2))
                .satisfies(e -> assertThat(e.before()).isNull());

        actual.createUnclaimed(guid, "d1", List.of(2), "scaled", USER);
        assertThat(actuals.findById(ActualLrpKey.of(guid, 2)).orElseThrow().definitionVersion()).isEqualTo(2);
    }

    @Test
    void aSurgeKeepsTheOldInstanceServingFromATwinUntilItIsRemoved() {
        deployments.start(guid, current -> withAction(current.definition(), "v2"), STRATEGY, "alice", USER);
        ActualLrpKey zero = ActualLrpKey.of(guid, 0);

        actual.roll(List.of(zero), 2, true, "deployment", USER);

        ActualLrp record = actuals.findById(zero).orElseThrow();
        assertThat(record.state()).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(record.definitionVersion()).isEqualTo(2);
        ActualLrp twin = actuals.findEvacuating(zero).orElseThrow();
        assertThat(twin.instanceGuid()).isEqualTo("old-0");
        assertThat(twin.definitionVersion()).isEqualTo(1);
        assertThat(twin.isKeptForDeployment()).isTrue();
        assertThat(slots.of(List.of(guid)).get(guid)).extracting(Slot::index, Slot::version, Slot::twin)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 2, true),
                        org.assertj.core.groups.Tuple.tuple(1, 1, false));

        run(0, "new-0");
        actual.releaseDeploymentTwins(Map.of(zero, 2), "new instance healthy", USER);

        assertThat(actuals.findEvacuating(zero)).get().extracting(ActualLrp::stopRequested)
                .as("the twin's stop is a mark its cell repeats").isEqualTo("new instance healthy");
        assertThat(actualRows.ofProcess(guid)).as("clients no longer see the old instance")
                .noneMatch(row -> row.index() == 0 && "old-0".equals(row.instanceGuid()));
        assertThat(new Records(jdbc).messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class))
                .anySatisfy(m -> assertThat(m.instanceGuid()).isEqualTo("old-0"));
        actual.removeAll(Map.of(zero, InstanceOwner.of("old-0", cell)), "container stopped", USER);
        assertThat(actuals.findEvacuating(zero)).as("its cell removes it once stopped").isEmpty();
    }

    @Test
    void aReplacementInPlaceAsksTheOwnerToStopOnce() {
        deployments.start(guid, current -> withAction(current.definition(), "v2"), STRATEGY, "alice", USER);
        ActualLrpKey one = ActualLrpKey.of(guid, 1);

        actual.roll(List.of(one), 2, false, "deployment", USER);
        actual.roll(List.of(one), 2, false, "deployment", USER);

        ActualLrp record = actuals.findById(one).orElseThrow();
        assertThat(record.stopRequested()).isEqualTo("deployment");
        assertThat(record.definitionVersion()).isEqualTo(1);
        assertThat(new Records(jdbc).messages(Topics.STOP_REQUESTS, cell, LrpStopRequested.class))
                .filteredOn(m -> m.instanceGuid().equals("old-1")).hasSize(1);
    }

    @Test
    void aFailedDeploymentIsRevertedToTheVersionItCameFrom() {
        Deployment d = deployments.start(guid, current -> withAction(current.definition(), "broken"), STRATEGY,
                "alice", USER);
        Step failed = new Step(List.of(), List.of(), List.of(), List.of(), Step.Verdict.FAILED, "crashed",
                d.progressAt(), new Step.Counts(2, 0, 2, 1));

        Deployment reverted = deployments.decided(d, failed, Actor.service("deployer"));

        assertThat(reverted.state()).isEqualTo(DeploymentState.REVERTED);
        assertThat(reverted.failureReason()).isEqualTo("crashed");
        Deployment revert = deployments.active().stream().filter(a -> a.processGuid().equals(guid)).findFirst()
                .orElseThrow();
        assertThat(revert.reverts()).isEqualTo(d.id());
        assertThat(revert.toVersion()).isEqualTo(1);
        assertThat(revert.autoRevert()).isFalse();
        assertThat(revert.strategy()).as("the same pace, never a shorter deadline than the default").isEqualTo(
                new Strategy(STRATEGY.maxSurge(), STRATEGY.maxUnavailable(), STRATEGY.minHealthyTime(),
                        Duration.ofMinutes(10), false, 0));
        assertThat(desired.snapshot(guid).orElseThrow().definition().action()).isEqualTo(action("v1"));
        assertThat(desired.snapshot(guid).orElseThrow().definitionVersion()).isEqualTo(1);
    }

    /**
     * The truth checker's anomaly C: a broken version 2 superseded by a broken version 3 before it ran; 3 failed and was
     * reverted to its from_version, 2, which never ran, and the LRP ran nothing for the revert's whole deadline. A
     * revert goes back to the last stable version, here the one before any deployment.
     */
    @Test
    void anAutomaticRevertGoesBackToTheLastStableVersionNotToABrokenOneItSuperseded() {
        deployments.start(guid, current -> withAction(current.definition(), "broken-2"), STRATEGY, "alice", USER);

        Deployment revert = revertOfABrokenThirdVersion();

        assertThat(revert.toVersion()).as("the last stable version").isEqualTo(1);
        assertThat(desired.snapshot(guid).orElseThrow().definition().action()).isEqualTo(action("v1"));
    }

    /**
     * The truth checker's seed-17 run in CI: a broken deployment succeeded at once while the LRP had no instance, a
     * scale-up then ran it, and when the next broken deployment failed, the automatic revert went back to that one (the
     * newest success) and crash-looped for its whole 10-minute deadline. A success no instance proved is not stable.
     */
    @Test
    void anAutomaticRevertSkipsASuccessNoInstanceProved() {
        assertThat(succeeded("broken-2", new Step.Counts(0, 0, 0, 0)).state()).isEqualTo(DeploymentState.SUCCESSFUL);

        Deployment revert = revertOfABrokenThirdVersion();

        assertThat(revert.toVersion()).as("the version before any deployment, not the unproven success").isEqualTo(1);
        assertThat(desired.snapshot(guid).orElseThrow().definition().action()).isEqualTo(action("v1"));
    }

    @Test
    void anAutomaticRevertGoesBackToASuccessAnInstanceProved() {
        succeeded("v2", new Step.Counts(2, 2, 2, 0));

        Deployment revert = revertOfABrokenThirdVersion();

        assertThat(revert.toVersion()).isEqualTo(2);
        assertThat(desired.snapshot(guid).orElseThrow().definition().action()).isEqualTo(action("v2"));
    }

    /** A deployment to a definition running {@code version}, decided SUCCESSFUL with these counts. */
    private Deployment succeeded(String version, Step.Counts counts) {
        Deployment d = deployments.start(guid, current -> withAction(current.definition(), version), STRATEGY,
                "alice", USER);
        return deployments.decided(d, new Step(List.of(), List.of(), List.of(), List.of(), Step.Verdict.SUCCEEDED,
                "all instances updated", d.progressAt(), counts), Actor.service("deployer"));
    }

    /** Deploys the broken version 3, fails it at its deadline, and returns the automatic revert that follows. */
    private Deployment revertOfABrokenThirdVersion() {
        Deployment third = deployments.start(guid, current -> withAction(current.definition(), "broken-3"), STRATEGY,
                "alice", USER);
        assertThat(third.toVersion()).isEqualTo(3);
        Step failed = new Step(List.of(), List.of(), List.of(), List.of(), Step.Verdict.FAILED, "crashed",
                third.progressAt(), new Step.Counts(2, 0, 0, 2));
        assertThat(deployments.decided(third, failed, Actor.service("deployer")).state())
                .isEqualTo(DeploymentState.REVERTED);
        return deployments.active().stream().filter(a -> a.processGuid().equals(guid)).findFirst().orElseThrow();
    }

    @Test
    void aNewDeploymentSupersedesTheActiveOneAndRollbackGoesToAKeptVersion() {
        Deployment first = deployments.start(guid, current -> withAction(current.definition(), "v2"), STRATEGY,
                "alice", USER);
        Deployment back = deployments.rollback(guid, 1, STRATEGY, "bob", USER);

        assertThat(deployments.find(guid, first.id()).state()).isEqualTo(DeploymentState.CANCELLED);
        assertThat(back.toVersion()).isEqualTo(1);
        assertThat(desired.snapshot(guid).orElseThrow().definition().action()).isEqualTo(action("v1"));
        assertThatThrownBy(() -> deployments.rollback(guid, 1, STRATEGY, "bob", USER))
                .isInstanceOf(IllegalDeploymentException.class);
        assertThatThrownBy(() -> deployments.rollback(guid, 9, STRATEGY, "bob", USER))
                .isInstanceOf(IllegalDeploymentException.class);
        Deployment next = deployments.start(guid, current -> withAction(current.definition(), "v3"), STRATEGY,
                "carol", USER);
        assertThat(next.toVersion()).as("numbered after every kept version").isEqualTo(3);
    }

    @Test
    void pauseResumePromoteAndCancelFollowTheState() {
        Strategy canary = new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1),
                Duration.ofSeconds(30), true, 1);
        Deployment d = deployments.start(guid, current -> withAction(current.definition(), "v2"), canary, "alice",
                USER);
        assertThat(deployments.pause(guid, d.id(), "alice", USER).state()).isEqualTo(DeploymentState.PAUSED);
        Deployment resumed = deployments.resume(guid, d.id(), "alice", USER);
        assertThat(resumed.state()).isEqualTo(DeploymentState.RUNNING);
        assertThat(resumed.progressAt()).isAfterOrEqualTo(d.progressAt());
        Deployment promoted = deployments.promote(guid, d.id(), "alice", USER);
        assertThat(promoted.promoted()).isTrue();
        assertThat(deployments.cancel(guid, d.id(), "alice", USER).state()).isEqualTo(DeploymentState.CANCELLED);
        assertThatThrownBy(() -> deployments.resume(guid, d.id(), "alice", USER)).isInstanceOf(IllegalDeploymentException.class);
        assertThat(jdbc.queryForList("SELECT to_state FROM lrp_events WHERE entity = 'deployment' AND "
                + "process_guid = ? ORDER BY id", String.class, guid))
                .containsExactly("RUNNING", "PAUSED", "RUNNING", "RUNNING", "CANCELLED");
    }

    /**
     * The deployer notes progress on a running deployment every pass. A user's pause that reads the deployment, then
     * finds it moved on when it writes, is applied again to a fresh read instead of being answered 409: here the
     * lifecycle's clock, asked for the pause's time between that read and that write, commits such a progress note
     * from another connection the first three times.
     */
    @Test
    void aPauseOutlastsTheDeployerNotingProgressMeanwhile() throws Exception {
        Deployment d = deployments.start(guid, current -> withAction(current.definition(), "v2"), new Strategy(
                Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1), Duration.ofSeconds(30), true, 0),
                "alice", USER);
        Meanwhile progress = new Meanwhile(3, () -> jdbc.update("UPDATE deployments SET progress_at = now(), "
                + "version = version + 1 WHERE id = ?", d.id()));

        Deployment paused = lifecycleTimedBy(progress).pause(guid, d.id(), "alice", USER);

        assertThat(progress.pending()).as("every note committed under a running attempt").isZero();
        assertThat(paused.state()).isEqualTo(DeploymentState.PAUSED);
        assertThat(paused.version()).as("three notes, then the pause").isEqualTo(d.version() + 4);
        assertThat(jdbc.queryForList("SELECT to_state FROM lrp_events WHERE entity = 'deployment' AND "
                + "process_guid = ? ORDER BY id", String.class, guid)).as("the attempts that lost wrote nothing")
                .containsExactly("RUNNING", "PAUSED");
    }

    /**
     * The new definition is a compare-and-swap on the desired LRP as the start read it. A scale committed between that
     * read and the write (here by the lifecycle's clock, asked for the deployment's time in between) is a lost swap:
     * the start runs again on a fresh read and keeps both changes.
     */
    @Test
    void aDeploymentStartedWhileTheLrpIsScaledRunsAgainOnAFreshRead() throws Exception {
        Meanwhile scale = new Meanwhile(1, () -> desired.update(guid, new DesiredLrpUpdate(3, null, null), List.of(),
                USER));

        Deployment d = lifecycleTimedBy(scale).start(guid, current -> withAction(current.definition(), "v2"), STRATEGY,
                "alice", USER);

        assertThat(scale.pending()).isZero();
        assertThat(d.toVersion()).isEqualTo(2);
        DesiredLrpSnapshot now = desired.snapshot(guid).orElseThrow();
        assertThat(now.definition().instances()).as("the scale kept").isEqualTo(3);
        assertThat(now.definition().action()).isEqualTo(action("v2"));
        assertThat(now.definitionVersion()).isEqualTo(2);
        assertThat(now.modificationTag().index()).as("desired, scaled, redefined").isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM deployments WHERE process_guid = ?", Integer.class, guid))
                .as("the attempt that lost wrote nothing").isEqualTo(1);
        assertThat(jdbc.queryForList("SELECT reason FROM lrp_events WHERE entity = 'desired' AND process_guid = ? "
                + "ORDER BY id", String.class, guid)).containsExactly("desired", "updated", "deployment " + d.id());
    }

    /** A delete committed between the start's read and its write: the fresh read finds no LRP, and nothing is left. */
    @Test
    void aDeploymentStartedWhileTheLrpIsDeletedFindsItGone() {
        Meanwhile delete = new Meanwhile(1, () -> desired.remove(guid, USER));

        assertThatThrownBy(() -> lifecycleTimedBy(delete).start(guid, current -> withAction(current.definition(),
                "v2"), STRATEGY, "alice", USER)).isInstanceOf(DesiredLrpNotFoundException.class);

        assertThat(delete.pending()).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM deployments WHERE process_guid = ?", Integer.class, guid))
                .isZero();
        assertThat(jdbc.queryForList("SELECT event_type FROM lrp_events WHERE process_guid = ? AND entity <> 'actual' "
                + "ORDER BY id", String.class, guid)).containsExactly(LifecycleEvent.DESIRED_LRP_CREATED,
                        LifecycleEvent.DESIRED_LRP_REMOVED);
    }

    private DeploymentLifecycle lifecycleTimedBy(Clock clock) {
        return new DeploymentLifecycle(new TransactionTemplate(txManager), jdbc, desired, outbox, clock,
                new TimeOrderedIds(), new OptimisticRetry(8));
    }

    /**
     * A clock that, the first {@code times} it is asked, first commits {@code change} from another connection: what
     * another writer does between a transaction's read and its write.
     */
    private static final class Meanwhile extends Clock {

        private final AtomicInteger remaining;
        private final Runnable change;

        Meanwhile(int times, Runnable change) {
            this.remaining = new AtomicInteger(times);
            this.change = change;
        }

        int pending() {
            return remaining.get();
        }

        @Override
        public Instant instant() {
            if (remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                try {
                    CompletableFuture.runAsync(change).get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException("the change meanwhile did not commit", e);
                }
            }
            return Instant.now();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    private void run(int index, String instanceGuid) {
        ActualLrpKey key = ActualLrpKey.of(guid, index);
        InstanceOwner owner = InstanceOwner.of(instanceGuid, cell);
        actual.claim(key, owner, USER);
        actual.start(new StartedInstance(key, "d1", owner, new NetInfo("10.0.0.1", List.of())), USER);
    }

    private static Deployable withAction(DesiredLrpDefinition d, String version) {
        Deployable current = Deployable.of(d);
        return new Deployable(action(version), current.monitor(), current.checkDefinition(), current.startTimeout(),
                current.env(), current.ports(), current.memoryMb(), current.diskMb(), current.maxPids(),
                current.cpuWeight(), current.placementTags());
    }

    private static Action action(String version) {
        return new Action(new RunAction("sleep", List.of("100", version), null, null, null));
    }
}
