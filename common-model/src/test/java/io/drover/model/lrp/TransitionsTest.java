package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every cell of the transition table of SPEC 3.2, checked against {@link Transitions#allows}. */
class TransitionsTest {

    /** Who asks for a transition, relative to the stored owner. */
    enum Requester {
        SAME, OTHER, NONE
    }

    /** What a cell of the SPEC table says: any requester, only the same owner, only an empty requester, nobody. */
    enum Rule {
        ANY, SAME, EMPTY, NEVER;

        /** Whether this rule lets {@code requester} change a record owned by {@code stored}. */
        boolean allows(InstanceOwner stored, InstanceOwner requester) {
            return switch (this) {
                case ANY -> true;
                case SAME -> requester.equals(stored);
                case EMPTY -> requester.isEmpty();
                case NEVER -> false;
            };
        }

        boolean allows(Requester requester) {
            return switch (this) {
                case ANY -> true;
                case SAME -> requester == Requester.SAME;
                case EMPTY -> requester == Requester.NONE;
                case NEVER -> false;
            };
        }
    }

    /** SPEC 3.2, row by row: from-state -> rule for UNCLAIMED, CLAIMED, RUNNING, CRASHED. */
    static final Map<ActualLrpState, List<Rule>> SPEC_TABLE = Map.of(
            UNCLAIMED, List.of(Rule.ANY, Rule.ANY, Rule.ANY, Rule.NEVER),
            CLAIMED, List.of(Rule.EMPTY, Rule.SAME, Rule.ANY, Rule.SAME),
            RUNNING, List.of(Rule.EMPTY, Rule.SAME, Rule.SAME, Rule.SAME),
            CRASHED, List.of(Rule.EMPTY, Rule.SAME, Rule.SAME, Rule.NEVER));

    static final InstanceOwner STORED = InstanceOwner.of("ig-stored", "cell-a");
    static final InstanceOwner OTHER = InstanceOwner.of("ig-other", "cell-b");

    static Rule rule(ActualLrpState from, ActualLrpState to) {
        return SPEC_TABLE.get(from).get(to.ordinal());
    }

    static InstanceOwner requester(Requester requester, InstanceOwner stored) {
        return switch (requester) {
            case SAME -> stored;
            case OTHER -> OTHER;
            case NONE -> InstanceOwner.NONE;
        };
    }

    static Stream<Arguments> everyCell() {
        List<Arguments> cells = new ArrayList<>();
        for (ActualLrpState from : ActualLrpState.values()) {
            for (ActualLrpState to : ActualLrpState.values()) {
                for (Requester requester : Requester.values()) {
                    cells.add(Arguments.of(from, to, requester, rule(from, to).allows(requester)));
                }
            }
        }
        return cells.stream();
    }

    @ParameterizedTest(name = "{0} -> {1} requested by {2} owner is allowed: {3}")
    @MethodSource("everyCell")
    void tableAnswersEveryCellAsTheSpecSays(ActualLrpState from, ActualLrpState to, Requester requester,
            boolean allowed) {
        assertThat(Transitions.allows(from, STORED, requester(requester, STORED), to)).isEqualTo(allowed);
    }

    @Test
    void tableHasFortyEightCells() {
        assertThat(everyCell()).hasSize(4 * 4 * 3);
    }

    @Test
    void anUnownedRecordCountsAnEmptyRequesterAsTheSameOwner() {
        // CRASHED and UNCLAIMED records carry no owner (SPEC 3.1), so "same" can only be the empty requester:
        // a cell can never claim or start a CRASHED record directly; the converger unclaims it first (as in Diego).
        assertThat(Transitions.allows(CRASHED, InstanceOwner.NONE, STORED, CLAIMED)).isFalse();
        assertThat(Transitions.allows(CRASHED, InstanceOwner.NONE, STORED, RUNNING)).isFalse();
        assertThat(Transitions.allows(CRASHED, InstanceOwner.NONE, InstanceOwner.NONE, UNCLAIMED)).isTrue();
    }

    @Test
    void rejectionNamesBothOwners() {
        ActualLrpKey key = ActualLrpKey.of("web", 2);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Transitions.check(key, RUNNING, STORED, OTHER, CRASHED))
                .isInstanceOf(IllegalTransitionException.class)
                .hasMessageContaining("web.2").hasMessageContaining("ig-stored@cell-a")
                .hasMessageContaining("ig-other@cell-b")
                .satisfies(e -> assertThat(((IllegalTransitionException) e).key()).isEqualTo(key));
    }
}
