package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpFixtures.ALWAYS_WAIT;
import static io.drover.model.lrp.ActualLrpFixtures.NET;
import static io.drover.model.lrp.ActualLrpFixtures.OTHER;
import static io.drover.model.lrp.ActualLrpFixtures.OWNER;
import static io.drover.model.lrp.ActualLrpFixtures.T0;
import static io.drover.model.lrp.ActualLrpFixtures.assertInvariants;
import static io.drover.model.lrp.ActualLrpFixtures.inState;
import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The transition table of SPEC 3.2 exercised through the verbs of {@link ActualLrp}: claim (to CLAIMED), start (to
 * RUNNING), crash (to CRASHED) and unclaim (to UNCLAIMED), from a record in every state, by the stored owner, another
 * owner and no owner; plus the exact repeats that must be no-ops and the SPEC 3.1 invariants after every verb.
 */
class ActualLrpTest {

    static final Instant LATER = T0.plusSeconds(10);

    static Stream<Arguments> everyVerbFromEveryState() {
        List<Arguments> cases = new ArrayList<>();
        for (ActualLrpState from : ActualLrpState.values()) {
            for (ActualLrpState to : ActualLrpState.values()) {
                for (InstanceOwner requester : List.of(OWNER, OTHER, InstanceOwner.NONE)) {
                    // unclaim carries no owner: a non-empty requester cannot even be expressed for it
                    if (to != UNCLAIMED || requester.isEmpty()) {
                        cases.add(Arguments.of(from, to, requester));
                    }
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} requested by {2}")
    @MethodSource("everyVerbFromEveryState")
    void verbDoesWhatTheTableAllowsAndNothingElse(ActualLrpState from, ActualLrpState to, InstanceOwner requester) {
        ActualLrp lrp = inState(from);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        if (to != UNCLAIMED && requester.isEmpty()) {
            assertThatThrownBy(() -> verb(lrp, to, requester)).isInstanceOf(IllegalArgumentException.class);
            assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
            return;
        }
        boolean allowed = TransitionsTest.rule(from, to).allows(lrp.owner(), requester);
        if (!allowed) {
            assertThatThrownBy(() -> verb(lrp, to, requester)).isInstanceOf(IllegalTransitionException.class);
            assertThat(lrp.snapshot(ALWAYS_WAIT)).as("a rejected verb changes nothing").isEqualTo(before);
            return;
        }
        verb(lrp, to, requester);
        assertThat(lrp.state()).isEqualTo(to);
        if (to == CLAIMED || to == RUNNING) {
            assertThat(lrp.owner()).isEqualTo(requester);
        }
        assertInvariants(lrp);
    }

    private static void verb(ActualLrp lrp, ActualLrpState to, InstanceOwner requester) {
        switch (to) {
            case UNCLAIMED -> lrp.unclaim(EnumSet.allOf(ActualLrpState.class), LATER);
            case CLAIMED -> lrp.claim(requester, null, LATER);
            case RUNNING -> lrp.start(requester, NET, null, LATER);
            case CRASHED -> lrp.crash(requester, "exited with code 2", ALWAYS_WAIT, LATER);
        }
    }

    @Test
    void claimTwiceBySameOwnerIsANoOp() {
        ActualLrp lrp = inState(CLAIMED);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThat(lrp.claim(OWNER, null, LATER)).isFalse();
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
    }

    @Test
    void claimByAnotherCellIsRejected() {
        ActualLrp lrp = inState(CLAIMED);
        assertThatThrownBy(() -> lrp.claim(OTHER, null, LATER)).isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.owner()).isEqualTo(OWNER);
    }

    @Test
    void startTwiceWithSameNetInfoIsANoOp() {
        ActualLrp lrp = inState(RUNNING);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThat(lrp.start(OWNER, NET, null, LATER)).isFalse();
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
    }

    @Test
    void startAgainWithNewNetInfoRecordsIt() {
        ActualLrp lrp = inState(RUNNING);
        NetInfo moved = new NetInfo("10.0.0.2", List.of(new NetInfo.PortMapping(8080, 61001)));
        assertThat(lrp.start(OWNER, moved, null, LATER)).isTrue();
        assertThat(lrp.netInfo()).isEqualTo(moved);
    }

    @Test
    void startWithoutNetInfoIsAProgrammingError() {
        ActualLrp lrp = inState(CLAIMED);
        assertThatThrownBy(() -> lrp.start(OWNER, null, null, LATER)).isInstanceOf(NullPointerException.class);
        assertThat(lrp.state()).isEqualTo(CLAIMED);
    }

    @Test
    void placeOnSameCellTwiceIsANoOp() {
        ActualLrp lrp = inState(UNCLAIMED);
        assertThat(lrp.place("cell-a", T0)).isTrue();
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThat(lrp.place("cell-a", LATER)).isFalse();
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
        assertThat(lrp.placement().placedAt()).isEqualTo(T0);
    }

    @Test
    void placeOnAnotherCellMovesThePlacement() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-a", T0);
        assertThat(lrp.place("cell-b", LATER)).isTrue();
        assertThat(lrp.placement().cellId()).isEqualTo("cell-b");
        assertThat(lrp.placement().placedAt()).isEqualTo(LATER);
        assertThat(lrp.state()).isEqualTo(UNCLAIMED);
    }

    @Test
    void placeClearsAnEarlierPlacementError() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.failPlacement("insufficient resources: memory", null, T0);
        assertThat(lrp.place("cell-a", LATER)).isTrue();
        assertThat(lrp.placementError()).isNull();
        assertInvariants(lrp);
    }

    @Test
    void failPlacementWithSameErrorTwiceIsANoOp() {
        ActualLrp lrp = inState(UNCLAIMED);
        assertThat(lrp.failPlacement("no cells available", null, T0)).isTrue();
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThat(lrp.failPlacement("no cells available", null, LATER)).isFalse();
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
    }

    @Test
    void failPlacementClearsThePlacementInFlightAndRestartsTheClock() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-a", T0);
        assertThat(lrp.failPlacement("cell rejected the work", null, LATER)).isTrue();
        assertThat(lrp.placement().cellId()).isNull();
        assertThat(lrp.placement().placedAt()).isNull();
        assertThat(lrp.since()).isEqualTo(LATER);
        assertThat(lrp.placementError()).isEqualTo("cell rejected the work");
    }

    @ParameterizedTest
    @EnumSource(value = ActualLrpState.class, names = "UNCLAIMED", mode = EnumSource.Mode.EXCLUDE)
    void placeAndFailPlacementOnlyApplyToUnclaimed(ActualLrpState state) {
        ActualLrp lrp = inState(state);
        assertThatThrownBy(() -> lrp.place("cell-a", LATER)).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> lrp.failPlacement("x", null, LATER)).isInstanceOf(IllegalTransitionException.class);
        assertInvariants(lrp);
    }

    @Test
    void claimClearsPlacementAndPlacementError() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.failPlacement("no cells available", null, T0);
        lrp.place("cell-a", T0);
        lrp.claim(OWNER, null, LATER);
        assertThat(lrp.placement().cellId()).isNull();
        assertThat(lrp.placementError()).isNull();
        assertThat(lrp.since()).isEqualTo(LATER);
        assertInvariants(lrp);
    }

    @Test
    void claimOfARunningRecordBySameOwnerDropsItsNetInfo() {
        ActualLrp lrp = inState(RUNNING);
        assertThat(lrp.claim(OWNER, null, LATER)).isTrue();
        assertThat(lrp.state()).isEqualTo(CLAIMED);
        assertThat(lrp.netInfo()).isNull();
    }

    @Test
    void startOfAClaimedRecordByAnotherCellTakesItOver() {
        // CLAIMED -> RUNNING is "any" (Diego): the cell that really runs the instance wins.
        ActualLrp lrp = inState(CLAIMED);
        lrp.start(OTHER, NET, null, LATER);
        assertThat(lrp.owner()).isEqualTo(OTHER);
        assertThat(lrp.state()).isEqualTo(RUNNING);
    }

    @Test
    void unclaimOfARunningRecordClearsOwnerAndNetInfo() {
        ActualLrp lrp = inState(RUNNING);
        lrp.unclaim(EnumSet.allOf(ActualLrpState.class), LATER);
        assertThat(lrp.state()).isEqualTo(UNCLAIMED);
        assertThat(lrp.since()).isEqualTo(LATER);
        assertInvariants(lrp);
    }

    @Test
    void unclaimOfAnUnclaimedRecordDropsItsPlacementForANewAuction() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-a", T0);
        lrp.unclaim(EnumSet.allOf(ActualLrpState.class), LATER);
        assertThat(lrp.placement().cellId()).isNull();
        assertThat(lrp.since()).isEqualTo(LATER);
    }

    @Test
    void crashRecordsReasonAndClearsOwner() {
        ActualLrp lrp = inState(RUNNING);
        assertThat(lrp.crash(OWNER, "out of memory", ALWAYS_WAIT, LATER)).isEqualTo(CRASHED);
        assertThat(lrp.crashReason()).isEqualTo("out of memory");
        assertThat(lrp.crashCount()).isEqualTo(1);
        assertThat(lrp.since()).isEqualTo(LATER);
        assertInvariants(lrp);
    }

    @Test
    void crashThatRestartsAtOnceLeavesAnUnclaimedRecordWithItsCrashCount() {
        ActualLrp lrp = inState(RUNNING);
        assertThat(lrp.crash(OWNER, "exited with code 1", CrashRestartPolicy.defaults(), LATER)).isEqualTo(UNCLAIMED);
        assertThat(lrp.crashCount()).isEqualTo(1);
        assertThat(lrp.crashReason()).isEqualTo("exited with code 1");
        assertInvariants(lrp);
    }

    @Test
    void secondCrashReportOfTheSameIncarnationIsRejected() {
        ActualLrp lrp = inState(RUNNING);
        lrp.crash(OWNER, "exited with code 1", CrashRestartPolicy.defaults(), LATER);
        assertThatThrownBy(() -> lrp.crash(OWNER, "exited with code 1", CrashRestartPolicy.defaults(), LATER))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.crashCount()).isEqualTo(1);
    }

    @Test
    void snapshotOfACrashedRecordShowsWhenItRestarts() {
        ActualLrp lrp = inState(CRASHED);
        assertThat(lrp.snapshot(ALWAYS_WAIT).nextRestartAt()).isEqualTo(T0.plusSeconds(30).toEpochMilli());
        assertThat(inState(RUNNING).snapshot(ALWAYS_WAIT).nextRestartAt()).isNull();
    }

    @Test
    void claimOfTheCurrentPlacementSucceeds() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-a", T0);
        assertThat(lrp.claim(OWNER, ActualLrpFixtures.placedOn("cell-a"), LATER)).isTrue();
        assertThat(lrp.state()).isEqualTo(CLAIMED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("overtakenPlacements")
    void claimOfAPlacementThatIsNoLongerCurrentIsRejected(String situation, ActualLrp lrp,
            io.drover.model.placement.Placement placement) {
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThatThrownBy(() -> lrp.claim(OWNER, placement, LATER)).isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
    }

    static Stream<Arguments> overtakenPlacements() {
        ActualLrp elsewhere = inState(UNCLAIMED);
        elsewhere.place("cell-b", T0);
        ActualLrp unplaced = inState(UNCLAIMED);
        ActualLrp failed = inState(UNCLAIMED);
        failed.place("cell-a", T0);
        failed.failPlacement("no cells available", null, T0);
        ActualLrp recreated = inState(UNCLAIMED);
        recreated.place("cell-a", T0);
        ActualLrp claimedByAnother = inState(UNCLAIMED);
        claimedByAnother.place("cell-a", T0);
        claimedByAnother.claim(InstanceOwner.of("ig-0", "cell-a"), ActualLrpFixtures.placedOn("cell-a"), T0);
        // A deployment rolled the slot to version 2 (RUNNING at 1 -> twin, UNCLAIMED at 2) and the auction placed it on
        // the same cell again: a placement made for version 1 must not claim it.
        ActualLrp rolled = inState(RUNNING);
        rolled.roll(2, T0);
        rolled.place("cell-a", T0);
        return Stream.of(
                Arguments.of("re-placed on another cell", elsewhere, ActualLrpFixtures.placedOn("cell-a")),
                Arguments.of("placement cleared", unplaced, ActualLrpFixtures.placedOn("cell-a")),
                Arguments.of("placement failed since", failed, ActualLrpFixtures.placedOn("cell-a")),
                Arguments.of("record deleted and created again (new epoch)", recreated,
                        new io.drover.model.placement.Placement("cell-a",
                                java.util.UUID.fromString("00000000-0000-0000-0000-000000000bad"), 1)),
                Arguments.of("already claimed by an earlier delivery", claimedByAnother,
                        ActualLrpFixtures.placedOn("cell-a")),
                Arguments.of("slot rolled to version 2 and placed on the same cell again", rolled,
                        ActualLrpFixtures.placedOn("cell-a")));
    }

    @Test
    void aCellFailsOnlyItsOwnCurrentPlacement() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-b", T0);
        assertThatThrownBy(() -> lrp.failPlacement("insufficient resources: memory", "cell-a", LATER))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.placement().cellId()).isEqualTo("cell-b");
        assertThat(lrp.failPlacement("insufficient resources: memory", "cell-b", LATER)).isTrue();
        assertThat(lrp.placement().cellId()).isNull();
    }

    @Test
    void unclaimOnlyFromTheStatesTheRepairExpected() {
        ActualLrp lrp = inState(CRASHED);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThatThrownBy(() -> lrp.unclaim(EnumSet.of(CLAIMED, RUNNING), LATER))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
        lrp.unclaim(EnumSet.of(CRASHED), LATER);
        assertThat(lrp.state()).isEqualTo(UNCLAIMED);
    }

    @ParameterizedTest
    @EnumSource(ActualLrpState.class)
    void onlyTheOwnerMayRemoveARecord(ActualLrpState state) {
        ActualLrp lrp = inState(state);
        assertThatThrownBy(() -> lrp.remove(OTHER)).isInstanceOf(IllegalTransitionException.class);
        if (state == CLAIMED || state == RUNNING) {
            lrp.remove(OWNER);
        } else {
            assertThatThrownBy(() -> lrp.remove(OWNER)).isInstanceOf(IllegalTransitionException.class);
        }
    }

    @Test
    void evacuatingARunningInstanceLeavesATwinServingAndTheSlotUnclaimed() {
        ActualLrp lrp = inState(RUNNING);
        ActualLrp twin = lrp.evacuate(OWNER, LATER);
        assertThat(lrp.state()).isEqualTo(UNCLAIMED);
        assertInvariants(lrp);
        assertThat(twin.isEvacuating()).isTrue();
        assertThat(twin.state()).isEqualTo(RUNNING);
        assertThat(twin.owner()).isEqualTo(OWNER);
        assertThat(twin.netInfo()).isEqualTo(NET);
        assertThat(twin.snapshot(ALWAYS_WAIT).evacuating()).isTrue();
        assertThat(lrp.snapshot(ALWAYS_WAIT).evacuating()).isFalse();
    }

    @Test
    void evacuatingAClaimedInstanceOnlyUnclaimsIt() {
        ActualLrp lrp = inState(CLAIMED);
        assertThat(lrp.evacuate(OWNER, LATER)).isNull();
        assertThat(lrp.state()).isEqualTo(UNCLAIMED);
    }

    @ParameterizedTest
    @EnumSource(ActualLrpState.class)
    void onlyTheOwnerEvacuatesItsInstance(ActualLrpState state) {
        ActualLrp lrp = inState(state);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThatThrownBy(() -> lrp.evacuate(OTHER, LATER)).isInstanceOf(IllegalTransitionException.class);
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
    }

    @Test
    void aContainerThatDidNotClaimTheRecordStartsItOnlyAtTheVersionTheRecordWants() {
        ActualLrp lrp = inState(RUNNING);
        lrp.roll(2, LATER);
        ActualLrpSnapshot before = lrp.snapshot(ALWAYS_WAIT);
        assertThatThrownBy(() -> lrp.start(OTHER, NET, 1, LATER)).isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("runs definition version 1, the slot wants 2");
        assertThat(lrp.snapshot(ALWAYS_WAIT)).isEqualTo(before);
        assertThat(lrp.start(OTHER, NET, 2, LATER)).isTrue();
        assertThat(lrp.definitionVersion()).isEqualTo(2);
    }

    @Test
    void theClaimantStartsWhatItClaimed() {
        ActualLrp lrp = inState(UNCLAIMED);
        lrp.place("cell-a", T0);
        lrp.claim(OWNER, ActualLrpFixtures.placedOn("cell-a"), T0);
        assertThat(lrp.start(OWNER, NET, 1, LATER)).isTrue();
    }
}
