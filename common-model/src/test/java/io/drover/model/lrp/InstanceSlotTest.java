package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpFixtures.ALWAYS_WAIT;
import static io.drover.model.lrp.ActualLrpFixtures.KEY;
import static io.drover.model.lrp.ActualLrpFixtures.NET;
import static io.drover.model.lrp.ActualLrpFixtures.OTHER;
import static io.drover.model.lrp.ActualLrpFixtures.OWNER;
import static io.drover.model.lrp.ActualLrpFixtures.T0;
import static io.drover.model.lrp.ActualLrpFixtures.inState;
import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.messaging.LifecycleEvent;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rules of an instance slot that involve its twin, verb by verb: what a drain and a deployment leave behind, who
 * the twin's container answers to, and how a retired slot's twin is stopped for good. Pure: the slot notes what it
 * changed and asks for in a {@link ChangeLog}, which the cases read.
 */
class InstanceSlotTest {

    static final Instant LATER = T0.plusSeconds(10);
    static final UUID LIFE = UUID.fromString("00000000-0000-0000-0000-00000000aaaa");
    static final UUID EARLIER_LIFE = UUID.fromString("00000000-0000-0000-0000-00000000bbbb");
    static final Predicate<String> ALL_LIVE = cell -> true;
    static final Predicate<String> NONE_LIVE = cell -> false;

    private final ChangeLog changes = new ChangeLog();

    private InstanceSlot slot(ActualLrp record, ActualLrp twin) {
        return new InstanceSlot(KEY, record, twin, LATER, ALWAYS_WAIT, UUID::randomUUID, changes);
    }

    /** A slot whose RUNNING instance (OWNER, version 1) a deployment to version 2 keeps serving from a twin. */
    private static ActualLrp[] rolledWithTwin() {
        ActualLrp record = inState(RUNNING);
        ActualLrp twin = record.roll(2, T0);
        return new ActualLrp[] {record, twin};
    }

    @Test
    void aSurgeKeepsTheRunningInstanceServingFromADeploymentTwinAndAuctionsTheSlotAtTheNewVersion() {
        InstanceSlot slot = slot(inState(RUNNING), null);
        assertThat(slot.roll(2, true, RollRequest.UNCHECKED, true, "deployment")).isTrue();
        assertThat(changes.inserts).singleElement().satisfies(twin -> {
            assertThat(twin.isKeptForDeployment()).isTrue();
            assertThat(twin.owner()).isEqualTo(OWNER);
            assertThat(twin.definitionVersion()).isEqualTo(1);
        });
        assertThat(changes.updates).singleElement().satisfies(record -> {
            assertThat(record.state()).isEqualTo(UNCLAIMED);
            assertThat(record.definitionVersion()).isEqualTo(2);
        });
        assertThat(changes.auctions).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inPlaceReplacements")
    void aReplacementInPlaceAsksTheOwnerToStopInsteadOfRolling(String situation, ActualLrp record) {
        assertThat(slot(record, null).roll(2, false, RollRequest.UNCHECKED, true, "deployment")).isTrue();
        assertThat(changes.stops).singleElement().extracting(ChangeLog.Stop::instanceGuid)
                .isEqualTo(OWNER.instanceGuid());
        assertThat(changes.inserts).isEmpty();
        assertThat(changes.auctions).isEmpty();
    }

    static Stream<Arguments> inPlaceReplacements() {
        return Stream.of(Arguments.of("CLAIMED", inState(CLAIMED)), Arguments.of("RUNNING without a surge",
                inState(RUNNING)));
    }

    @Test
    void aSlotWhoseTwinServesIsNotSurgedAgain() {
        ActualLrp[] rolled = rolledWithTwin();
        // the slot's new instance runs version 2 on another cell; a deployment to 3 must not keep a second twin
        rolled[0].claim(OTHER, null, T0);
        rolled[0].start(OTHER, NET, 2, T0);
        InstanceSlot slot = slot(rolled[0], rolled[1]);
        assertThat(slot.roll(3, true, RollRequest.UNCHECKED, true, "deployment")).isTrue();
        assertThat(changes.inserts).isEmpty();
        assertThat(changes.stops).singleElement().extracting(ChangeLog.Stop::instanceGuid)
                .isEqualTo(OTHER.instanceGuid());
    }

    @Test
    void aSurgeWaitsWhileTheSlotsLastTwinIsStillStoppingRatherThanStoppingTheOnlyServingInstance() {
        ActualLrp[] rolled = rolledWithTwin();
        rolled[0].claim(OTHER, null, T0);
        rolled[0].start(OTHER, NET, 2, T0);
        InstanceSlot slot = slot(rolled[0], rolled[1]);
        assertThat(slot.releaseDeploymentTwin(2, "new instance healthy")).isTrue();
        changes.stops.clear();
        // the next deployment, to 3, asks to surge while the released twin's row waits for its cell to stop it
        assertThatThrownBy(() -> slot.roll(3, true, RollRequest.UNCHECKED, true, "deployment"))
                .isInstanceOf(IllegalTransitionException.class).hasMessageContaining("still stopping");
        assertThat(changes.stops).as("the record is the slot's only serving instance").isEmpty();
        assertThat(rolled[0].definitionVersion()).isEqualTo(2);
    }

    @Test
    void aRollDecidedFromAStaleReadIsRefused() {
        ActualLrp record = inState(CLAIMED);
        long seen = record.version() + 1;
        assertThatThrownBy(() -> slot(record, null).roll(2, false, new RollRequest(seen, null), true, "deployment"))
                .isInstanceOf(IllegalTransitionException.class).hasMessageContaining("changed since the deployer read");
        assertThat(changes.isEmpty()).isTrue();
    }

    @Test
    void noRollGoesOnForADeploymentThatIsNotRunning() {
        ActualLrp record = inState(UNCLAIMED);
        RollRequest request = new RollRequest(record.version(), UUID.randomUUID());
        assertThatThrownBy(() -> slot(record, null).roll(2, false, request, false, "deployment"))
                .isInstanceOf(IllegalTransitionException.class).hasMessageContaining("is not running");
        assertThat(record.definitionVersion()).isEqualTo(1);
    }

    @Test
    void theTwinsContainerIsRecordedByTheTwinNotByTheSlot() {
        ActualLrp[] rolled = rolledWithTwin();
        InstanceSlot slot = slot(rolled[0], rolled[1]);
        assertThat(slot.start(new StartedInstance(KEY, "domain-1", OWNER, NET, new DefinitionId(LIFE, 1)),
                new InstanceSlot.DesiredVersion(LIFE, 2), Actor.cell("cell-a"))).isFalse();
        assertThat(rolled[0].state()).isEqualTo(UNCLAIMED);
        assertThat(changes.isEmpty()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("startsOfAnotherDefinition")
    void aContainerThatDidNotClaimTheSlotTakesItOnlyIfItRunsWhatTheSlotWants(String situation, ActualLrp record,
            DefinitionId runs, boolean taken) {
        InstanceSlot slot = slot(record, null);
        StartedInstance started = new StartedInstance(KEY, "domain-1", OTHER, NET, runs);
        InstanceSlot.DesiredVersion current = new InstanceSlot.DesiredVersion(LIFE, 2);
        if (taken) {
            assertThat(slot.start(started, current, Actor.cell("cell-b"))).isTrue();
        } else {
            assertThatThrownBy(() -> slot.start(started, current, Actor.cell("cell-b")))
                    .isInstanceOf(IllegalTransitionException.class);
            assertThat(changes.isEmpty()).isTrue();
        }
    }

    static Stream<Arguments> startsOfAnotherDefinition() {
        ActualLrp rolled = inState(RUNNING);
        rolled.roll(2, T0);
        return Stream.of(
                Arguments.of("the slot wants version 2, the container runs 1", rolled, new DefinitionId(LIFE, 1),
                        false),
                Arguments.of("the container runs an earlier life's version 2", inState(UNCLAIMED),
                        new DefinitionId(EARLIER_LIFE, 1), false),
                Arguments.of("the container runs what the slot wants", inStateAt(UNCLAIMED, 2),
                        new DefinitionId(LIFE, 2), true),
                Arguments.of("a container that cannot tell (adopted from an older rep)", inState(UNCLAIMED), null,
                        true));
    }

    private static ActualLrp inStateAt(ActualLrpState state, int version) {
        ActualLrp lrp = ActualLrp.unclaimed(KEY, "domain-1", ActualLrpFixtures.EPOCH, T0, version);
        assertThat(lrp.state()).isEqualTo(state);
        return lrp;
    }

    @Test
    void aRunningContainerWithNoRecordGetsOneAtTheVersionItRuns() {
        InstanceSlot slot = slot(null, null);
        assertThat(slot.start(new StartedInstance(KEY, "domain-1", OWNER, NET, new DefinitionId(LIFE, 1)),
                new InstanceSlot.DesiredVersion(LIFE, 2), Actor.cell("cell-a"))).isTrue();
        assertThat(changes.inserts).singleElement().satisfies(r -> {
            assertThat(r.state()).isEqualTo(RUNNING);
            assertThat(r.definitionVersion()).as("the record says what runs").isEqualTo(1);
        });
    }

    @Test
    void aTwinWhoseContainerExitsIsRemovedAndTheSlotDoesNotCrash() {
        ActualLrp[] rolled = rolledWithTwin();
        InstanceSlot slot = slot(rolled[0], rolled[1]);
        assertThat(slot.crash(new CrashReport(OWNER, "exited with status 1"), Actor.cell("cell-a"))).isTrue();
        assertThat(changes.deletes).containsExactly(rolled[1]);
        assertThat(rolled[0].state()).isEqualTo(UNCLAIMED);
        assertThat(rolled[0].crashCount()).isZero();
    }

    @Test
    void aTwinWithoutItsRecordIsStillRemovedByItsOwner() {
        ActualLrp twin = rolledWithTwin()[1];
        assertThat(slot(null, twin).crash(new CrashReport(OWNER, "exited"), Actor.cell("cell-a"))).isTrue();
        assertThat(changes.deletes).containsExactly(twin);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("retirements")
    void retiringASlotStopsWhatALiveCellRunsDurablyAndDeletesTheRest(String situation, ActualLrpState recordState,
            boolean withTwin, Predicate<String> live, int stops, int marks, int deletes) {
        ActualLrp record = recordState == null ? null : inState(recordState);
        ActualLrp twin = withTwin ? rolledWithTwin()[1] : null;
        assertThat(slot(record, twin).retire(live, "scaled down")).isTrue();
        assertThat(changes.stops).as("stop requests").hasSize(stops);
        assertThat(changes.updates).as("stop marks written").hasSize(marks);
        assertThat(changes.updates).allSatisfy(r -> assertThat(r.stopRequested()).isEqualTo("scaled down"));
        assertThat(changes.deletes).as("rows deleted").hasSize(deletes);
    }

    static Stream<Arguments> retirements() {
        return Stream.of(
                Arguments.of("UNCLAIMED", UNCLAIMED, false, ALL_LIVE, 0, 0, 1),
                Arguments.of("CRASHED", CRASHED, false, ALL_LIVE, 0, 0, 1),
                Arguments.of("CLAIMED on a live cell", CLAIMED, false, ALL_LIVE, 1, 1, 0),
                Arguments.of("RUNNING on a live cell", RUNNING, false, ALL_LIVE, 1, 1, 0),
                Arguments.of("RUNNING on a lost cell", RUNNING, false, NONE_LIVE, 0, 0, 1),
                Arguments.of("UNCLAIMED with a twin on a live cell", UNCLAIMED, true, ALL_LIVE, 1, 1, 1),
                Arguments.of("a twin alone on a live cell", null, true, ALL_LIVE, 1, 1, 0),
                Arguments.of("a twin alone on a lost cell", null, true, NONE_LIVE, 0, 0, 1));
    }

    @Test
    void retiringAgainAsksAgainWithoutWritingTheMarkTwice() {
        ActualLrp record = inState(RUNNING);
        record.requestStop("scaled down");
        assertThat(slot(record, null).retire(ALL_LIVE, "scaled down")).isTrue();
        assertThat(changes.stops).hasSize(1);
        assertThat(changes.updates).isEmpty();
    }

    @Test
    void aDeploymentTwinIsReleasedOnlyWhileTheNewInstanceRunsTheTargetVersion() {
        ActualLrp[] rolled = rolledWithTwin();
        assertThatThrownBy(() -> slot(rolled[0], rolled[1]).releaseDeploymentTwin(2, "new instance healthy"))
                .as("the new instance is UNCLAIMED: the twin still serves").isInstanceOf(
                        IllegalTransitionException.class);
        rolled[0].claim(OTHER, null, T0);
        rolled[0].start(OTHER, NET, 2, T0);
        InstanceSlot slot = slot(rolled[0], rolled[1]);
        assertThat(slot.releaseDeploymentTwin(2, "new instance healthy")).isTrue();
        assertThat(rolled[1].stopRequested()).as("a mark its cell's sync repeats").isEqualTo("new instance healthy");
        assertThat(changes.deletes).as("its row and its resources last until its cell stopped it").isEmpty();
        assertThat(changes.actual).singleElement().satisfies(c -> {
            assertThat(c.type()).as("clients see it gone at once").isEqualTo(LifecycleEvent.ACTUAL_LRP_REMOVED);
            assertThat(c.published()).isTrue();
        });
        assertThat(changes.stops).singleElement().extracting(ChangeLog.Stop::instanceGuid)
                .isEqualTo(OWNER.instanceGuid());
        assertThat(slot.releaseDeploymentTwin(2, "new instance healthy")).as("released already").isFalse();
    }

    @Test
    void theRemovalOfATwinAskedToStopIsNotAnnouncedTwice() {
        ActualLrp twin = rolledWithTwin()[1];
        twin.requestStop("scaled down");
        assertThat(slot(null, twin).remove(OWNER, "container stopped", Actor.cell("cell-a"))).isTrue();
        assertThat(changes.deletes).containsExactly(twin);
        assertThat(changes.actual).singleElement().extracting(ChangeLog.ActualChange::published).isEqualTo(false);
    }

    @Test
    void anOrphanTwinIsRetiredOnlyWhenItsSlotHasNoRecord() {
        ActualLrp[] rolled = rolledWithTwin();
        assertThat(slot(rolled[0], rolled[1]).retireOrphanTwin(ALL_LIVE, "no record wants it")).isFalse();
        assertThat(slot(null, rolled[1]).retireOrphanTwin(ALL_LIVE, "no record wants it")).isTrue();
        assertThat(rolled[1].stopRequested()).isEqualTo("no record wants it");
    }

    @Test
    void aDrainKeepsARunningInstanceServingFromAnEvacuatingTwin() {
        ActualLrp record = inState(RUNNING);
        assertThat(slot(record, null).evacuate(OWNER, Actor.cell("cell-a"))).isTrue();
        assertThat(changes.inserts).singleElement().satisfies(twin -> {
            assertThat(twin.isEvacuating()).isTrue();
            assertThat(twin.isKeptForDeployment()).isFalse();
            assertThat(twin.netInfo()).isEqualTo(NET);
        });
        assertThat(record.state()).isEqualTo(UNCLAIMED);
        assertThat(changes.actual).extracting(ChangeLog.ActualChange::type)
                .contains(LifecycleEvent.ACTUAL_LRP_CREATED, LifecycleEvent.ACTUAL_LRP_CHANGED);
    }

    @Test
    void aDrainWaitsWhileAnotherIncarnationsTwinServesTheSlot() {
        ActualLrp[] rolled = rolledWithTwin();
        rolled[0].claim(OTHER, null, T0);
        rolled[0].start(OTHER, NET, 2, T0);
        assertThatThrownBy(() -> slot(rolled[0], rolled[1]).evacuate(OTHER, Actor.cell("cell-b")))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void aVerbThatNeedsARecordSaysThereIsNone() {
        assertThatThrownBy(() -> slot(null, null).claim(OWNER, null, Actor.cell("cell-a")))
                .isInstanceOf(ActualLrpNotFoundException.class);
        assertThat(slot(null, null).remove(OWNER, "gone", Actor.cell("cell-a"))).as("a removal is a no-op").isFalse();
    }
}
