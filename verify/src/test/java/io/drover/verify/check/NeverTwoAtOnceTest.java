package io.drover.verify.check;

import static io.drover.verify.check.Fixtures.actual;
import static io.drover.verify.check.Fixtures.answer;
import static io.drover.verify.check.Fixtures.cells;
import static io.drover.verify.check.Fixtures.created;
import static io.drover.verify.check.Fixtures.fault;
import static io.drover.verify.check.Fixtures.listing;
import static io.drover.verify.check.Fixtures.meta;
import static io.drover.verify.check.Fixtures.processProbe;
import static io.drover.verify.check.Fixtures.removed;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.history.History;
import org.junit.jupiter.api.Test;

class NeverTwoAtOnceTest {

    @Test
    void oneIncarnationPerIndexPerRoundIsFine() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"), processProbe(1, 1000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(1, 1001, "cell-z2", answer("a", 1, "i2", "l")),
                processProbe(2, 2000, "cell-z3", answer("a", 0, "i3", "l")))).anomalies()).isEmpty();
    }

    @Test
    void twoIncarnationsOfOneIndexAnsweringInOneRoundAreCaught() {
        CheckResult result = NeverTwoAtOnce.check(History.of(meta("a"),
                processProbe(7, 1000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(7, 1001, "cell-z2", answer("a", 0, "i2", "l")),
                processProbe(8, 2000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(8, 2001, "cell-z2", answer("a", 0, "i2", "l"))));
        assertThat(result.anomalies()).singleElement().satisfies(a -> {
            assertThat(a.key()).isEqualTo("a/0");
            assertThat(a.excerpt()).hasSize(2);
        });
    }

    @Test
    void anEvacuatingTwinAndItsReplacementMayBothAnswer() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"),
                listing("a", 7, 995, actual("a", 0, "i2", "cell-z2", "RUNNING", 1, false, 4),
                        actual("a", 0, "i1", "cell-z1", "RUNNING", 1, true, 1)),
                processProbe(7, 1000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(7, 1001, "cell-z2", answer("a", 0, "i2", "l")),
                // delisted, still answering a moment later: the pass that stops it has not come yet
                processProbe(8, 3000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(8, 3001, "cell-z2", answer("a", 0, "i2", "l")))).anomalies()).isEmpty();
    }

    /**
     * A twin asked to stop leaves the API at once while its container stops; one that lived between two listings was
     * never listed, but the event stream carried its creation and removal (seed 17, s17-3714-lrp-2: surged, then the
     * LRP deleted, its twin and the new instance both stopping).
     */
    @Test
    void aTwinOnlyTheEventStreamSawMayAnswerBesideItsReplacement() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"),
                created(1, 10, actual("a", 0, "i1", "cell-z1", "RUNNING", 1, true, 1), 900),
                removed(1, 11, actual("a", 0, "i1", "cell-z1", "RUNNING", 1, true, 1), 990),
                processProbe(7, 1000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(7, 1001, "cell-z2", answer("a", 0, "i2", "l")))).anomalies()).isEmpty();
    }

    @Test
    void aTwinStillAnsweringLongAfterItWasDelistedIsCaught() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"),
                listing("a", 7, 995, actual("a", 0, "i1", "cell-z1", "RUNNING", 1, true, 1)),
                processProbe(30, 30_000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(30, 30_001, "cell-z2", answer("a", 0, "i2", "l")))).anomalies()).hasSize(1);
    }

    @Test
    void theInstancesOfAKilledRepsCellMayRunBesideTheirReplacementsUntilItIsBackAndHasSynced() {
        var during = History.of(meta("a"), fault(FaultKinds.REP_KILL, "cell-z1", 1000, 20_000),
                processProbe(7, 15_000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(7, 15_001, "cell-z2", answer("a", 0, "i2", "l")),
                processProbe(9, 25_000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(9, 25_001, "cell-z2", answer("a", 0, "i2", "l")));
        assertThat(NeverTwoAtOnce.check(during).anomalies()).isEmpty();
        var afterGrace = History.of(meta("a"), fault(FaultKinds.REP_KILL, "cell-z1", 1000, 20_000),
                processProbe(12, 40_000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(12, 40_001, "cell-z2", answer("a", 0, "i2", "l")));
        assertThat(NeverTwoAtOnce.check(afterGrace).anomalies()).hasSize(1);
    }

    /** Compose: a rep cut off the network keeps its workloads; once connected again its sync stops the duplicates. */
    @Test
    void theInstancesOfARepCutOffTheNetworkMayRunBesideTheirReplacementsUntilItIsBackAndHasSynced() {
        var after = History.of(meta("a"), fault(FaultKinds.PARTITION, "cell-1", 1000, 40_000),
                processProbe(41, 41_000, "cell-1", answer("a", 0, "i1", "l")),
                processProbe(41, 41_001, "cell-2", answer("a", 0, "i2", "l")));
        assertThat(NeverTwoAtOnce.check(after).anomalies()).isEmpty();
        var afterGrace = History.of(meta("a"), fault(FaultKinds.PARTITION, "cell-1", 1000, 40_000),
                processProbe(60, 60_000, "cell-1", answer("a", 0, "i1", "l")),
                processProbe(60, 60_001, "cell-2", answer("a", 0, "i2", "l")));
        assertThat(NeverTwoAtOnce.check(afterGrace).anomalies()).hasSize(1);
        var convergerCutOff = History.of(meta("a"), fault(FaultKinds.PARTITION, "converger-service", 1000, 40_000),
                processProbe(41, 41_000, "cell-1", answer("a", 0, "i1", "l")),
                processProbe(41, 41_001, "cell-2", answer("a", 0, "i2", "l")));
        assertThat(NeverTwoAtOnce.check(convergerCutOff).anomalies()).as("no cell was away").hasSize(1);
    }

    @Test
    void aCellTheApiStoppedListingExcusesItsInstancesToo() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"), cells(0, "cell-z1", "cell-z2"), cells(5000, "cell-z2"),
                processProbe(7, 9000, "cell-z1", answer("a", 0, "i1", "l")),
                processProbe(7, 9001, "cell-z2", answer("a", 0, "i2", "l")))).anomalies()).isEmpty();
    }

    @Test
    void withoutProbesTheCheckSaysItWasSkipped() {
        assertThat(NeverTwoAtOnce.check(History.of(meta("a"))).wasSkipped()).isTrue();
    }
}
