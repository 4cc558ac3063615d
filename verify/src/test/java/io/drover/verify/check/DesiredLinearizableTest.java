package io.drover.verify.check;

import static io.drover.verify.check.Calls.annotate;
import static io.drover.verify.check.Calls.delete;
import static io.drover.verify.check.Calls.desire;
import static io.drover.verify.check.Calls.read;
import static io.drover.verify.check.Calls.readMissing;
import static io.drover.verify.check.Calls.scale;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Desired LRP histories whose verdict is known, as the receptor's calls record them. */
class DesiredLinearizableTest {

    private static List<Anomaly> check(Entry... calls) {
        return DesiredLinearizable.check(History.of(calls)).anomalies();
    }

    @Test
    void aSequenceOfCreateScaleReadAndDeleteIsLinearizable() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), scale("c1", "a", 3, 20, 30, 204, "e1:2"),
                read("c2", "a", 40, 50, "e1:2", 3, null), delete("c2", "a", 60, 70, 204),
                readMissing("c1", "a", 80, 90), desire("c1", "a", 2, 100, 110, 201, "e2:1"),
                read("c2", "a", 120, 130, "e2:1", 2, null))).isEmpty();
    }

    @Test
    void aCompareAndSetWithAStaleTagThatSucceedsIsCaught() {
        // both clients read version 1; the first swap wins; the second, still naming version 1, must be a 409
        List<Anomaly> anomalies = check(desire("c1", "a", 1, 0, 10, 201, "e1:1"),
                read("c1", "a", 20, 30, "e1:1", 1, null), read("c2", "a", 20, 30, "e1:1", 1, null),
                annotate("c1", "a", "x", "e1:1", 40, 50, 204, "e1:2"),
                annotate("c2", "a", "y", "e1:1", 60, 70, 204, "e1:3"));
        assertThat(anomalies).singleElement().satisfies(a -> {
            assertThat(a.check()).isEqualTo("linearizable");
            assertThat(a.key()).isEqualTo("a");
            assertThat(String.join("\n", a.excerpt())).contains("then no order places: c2");
        });
    }

    @Test
    void aCompareAndSetWithAStaleTagAnswered409IsFine() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), annotate("c1", "a", "x", "e1:1", 40, 50, 204, "e1:2"),
                annotate("c2", "a", "y", "e1:1", 60, 70, 409, null), read("c2", "a", 80, 90, "e1:2", 1, "x")))
                .isEmpty();
    }

    @Test
    void twoConcurrentSwapsOfTheSameVersionMayNotBothWin() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), annotate("c1", "a", "x", "e1:1", 40, 60, 204, "e1:2"),
                annotate("c2", "a", "y", "e1:1", 45, 65, 204, "e1:2"))).hasSize(1);
    }

    @Test
    void anAcknowledgedUpdateThatIsLostIsCaught() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), scale("c1", "a", 4, 20, 30, 204, "e1:2"),
                read("c2", "a", 40, 50, "e1:2", 1, null))).hasSize(1);
    }

    @Test
    void aReadOfAnOlderVersionAfterANewerOneIsCaught() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), scale("c1", "a", 2, 20, 30, 204, "e1:2"),
                read("c2", "a", 40, 50, "e1:2", 2, null), read("c3", "a", 60, 70, "e1:1", 1, null))).hasSize(1);
    }

    @Test
    void aDeploymentMovesTheVersionOnWithoutAWriteOfAValue() {
        // a read at index 4 with the value unchanged: deployments (and their automatic reverts) bump the row
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), read("c2", "a", 40, 50, "e1:4", 1, null),
                annotate("c2", "a", "x", "e1:4", 60, 70, 204, "e1:5"))).isEmpty();
    }

    @Test
    void anUpdateWhoseAnswerWasLostMayOrMayNotHaveHappened() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), scale("c1", "a", 3, 20, 30, 0, null),
                read("c2", "a", 40, 50, "e1:1", 1, null), read("c2", "a", 60, 70, "e1:2", 3, null))).isEmpty();
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), scale("c1", "a", 3, 20, 30, 503, null),
                read("c2", "a", 40, 50, "e1:1", 1, null))).isEmpty();
    }

    @Test
    void aValueNoCallWroteIsCaught() {
        // what a hostile request that slipped through would leave behind
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), read("c2", "a", 40, 50, "e1:2", 1, "hostile-7")))
                .hasSize(1);
    }

    @Test
    void aDeletedLrpThatIsStillReadIsCaught() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 201, "e1:1"), delete("c1", "a", 20, 30, 204),
                read("c2", "a", 40, 50, "e1:1", 1, null))).hasSize(1);
    }

    @Test
    void aCreateAnsweredAlreadyExistsNeedsOneThatExists() {
        assertThat(check(desire("c1", "a", 1, 0, 10, 409, null))).hasSize(1);
        assertThat(check(desire("c1", "a", 1, 0, 30, 201, "e1:1"), desire("c2", "a", 2, 5, 20, 409, null))).isEmpty();
    }

    @Test
    void keysAreCheckedApart() {
        CheckResult result = DesiredLinearizable.check(History.of(desire("c1", "a", 1, 0, 10, 201, "e1:1"),
                desire("c1", "b", 1, 0, 10, 201, "e2:1"), readMissing("c2", "b", 20, 30)));
        assertThat(result.anomalies()).extracting(Anomaly::key).containsExactly("b");
        assertThat(result.figures()).containsEntry("process_guids", 2);
    }

    /** Seed 30731 (--compose, 30 minutes): 9,218 operations on one key took 90 s, past the fixed minute. */
    @Test
    void theSearchMayTakeLongerOnALongerHistory() {
        assertThat(DesiredLinearizable.budget(500)).isEqualTo(Duration.ofMinutes(1));
        assertThat(DesiredLinearizable.budget(3_000)).isEqualTo(Duration.ofMinutes(1));
        assertThat(DesiredLinearizable.budget(9_218)).isGreaterThan(Duration.ofSeconds(180));
    }
}
