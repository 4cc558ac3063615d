package io.drover.model.lrp;

import static io.drover.model.lrp.ActualLrpFixtures.NET;
import static io.drover.model.lrp.ActualLrpFixtures.OWNER;
import static io.drover.model.lrp.ActualLrpFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** SPEC 3.4, row by row, with the default numbers and with custom ones. */
class CrashRestartPolicyTest {

    static final CrashRestartPolicy POLICY = CrashRestartPolicy.defaults();

    @ParameterizedTest(name = "crash {0} waits {1}")
    @CsvSource({
            "1, PT0S", "2, PT0S",
            "3, PT30S", "4, PT60S", "5, PT2M", "6, PT4M", "7, PT8M",
            "8, PT16M", "9, PT16M", "10, PT16M", "50, PT16M", "198, PT16M", "199, PT16M" })
    void specTable(int crashCount, Duration wait) {
        assertThat(POLICY.delay(crashCount)).contains(wait);
        assertThat(POLICY.restartsImmediately(crashCount)).isEqualTo(wait.isZero());
        assertThat(POLICY.nextRestartAt(crashCount, T0)).contains(T0.plus(wait));
    }

    static Stream<Arguments> everyCountFromEightTo199() {
        return IntStream.rangeClosed(8, 199).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "crash {0} waits 16 minutes")
    @MethodSource("everyCountFromEightTo199")
    void everyCrashFromTheEighthToThe199thWaitsSixteenMinutes(int crashCount) {
        assertThat(POLICY.delay(crashCount)).contains(Duration.ofMinutes(16));
        assertThat(POLICY.restartsImmediately(crashCount)).isFalse();
    }

    @Test
    void firstAndSecondCrashRestartAtOnce() {
        assertThat(POLICY.restartsImmediately(1)).isTrue();
        assertThat(POLICY.restartsImmediately(2)).isTrue();
        assertThat(POLICY.isDue(2, T0, T0)).isTrue();
    }

    @Test
    void thirdCrashWaitsThirtySeconds() {
        assertThat(POLICY.restartsImmediately(3)).isFalse();
        assertThat(POLICY.isDue(3, T0, T0.plusSeconds(29))).isFalse();
        assertThat(POLICY.isDue(3, T0, T0.plusSeconds(30))).isTrue();
    }

    @Test
    void fourthCrashWaitsOneMinute() {
        assertThat(POLICY.delay(4)).contains(Duration.ofMinutes(1));
    }

    @Test
    void seventhCrashWaitsEightMinutesAndTheEighthSixteen() {
        assertThat(POLICY.delay(7)).contains(Duration.ofMinutes(8));
        assertThat(POLICY.delay(8)).contains(Duration.ofMinutes(16));
    }

    @Test
    void twoHundredthCrashIsNeverRestarted() {
        assertThat(POLICY.delay(200)).isEmpty();
        assertThat(POLICY.nextRestartAt(200, T0)).isEmpty();
        assertThat(POLICY.restartsImmediately(200)).isFalse();
        assertThat(POLICY.isDue(200, T0, T0.plus(Duration.ofDays(365)))).isFalse();
        assertThat(POLICY.delay(201)).isEmpty();
    }

    @Test
    void crashAfterMoreThanFiveMinutesRunningCountsFromOneAgain() {
        assertThat(POLICY.crashCountAfterCrash(7, Duration.ofMinutes(5).plusMillis(1))).isEqualTo(1);
        assertThat(POLICY.crashCountAfterCrash(7, Duration.ofMinutes(5))).isEqualTo(8);
        assertThat(POLICY.crashCountAfterCrash(7, Duration.ofSeconds(10))).isEqualTo(8);
    }

    @Test
    void crashBeforeRunningAlwaysCounts() {
        assertThat(POLICY.crashCountAfterCrash(2, null)).isEqualTo(3);
    }

    @Test
    void customNumbersAreHonoured() {
        CrashRestartPolicy custom = new CrashRestartPolicy(1, Duration.ofSeconds(5), Duration.ofSeconds(20), 6,
                Duration.ofMinutes(1));
        assertThat(custom.delay(1)).contains(Duration.ZERO);
        assertThat(custom.delay(2)).contains(Duration.ofSeconds(5));
        assertThat(custom.delay(3)).contains(Duration.ofSeconds(10));
        assertThat(custom.delay(4)).contains(Duration.ofSeconds(20));
        assertThat(custom.delay(5)).contains(Duration.ofSeconds(20));
        assertThat(custom.delay(6)).isEqualTo(Optional.empty());
        assertThat(custom.restartsImmediately(2)).isFalse();
        assertThat(custom.crashCountAfterCrash(4, Duration.ofSeconds(61))).isEqualTo(1);
    }

    @Test
    void noImmediateRestartsMeansTheFirstCrashAlreadyWaits() {
        CrashRestartPolicy custom = new CrashRestartPolicy(0, Duration.ofSeconds(30), Duration.ofMinutes(16), 200,
                Duration.ofMinutes(5));
        assertThat(custom.restartsImmediately(1)).isFalse();
        assertThat(custom.delay(1)).contains(Duration.ofSeconds(30));
    }

    @Test
    void inconsistentNumbersAreRefused() {
        assertThatThrownBy(() -> new CrashRestartPolicy(2, Duration.ofMinutes(20), Duration.ofMinutes(16), 200,
                Duration.ofMinutes(5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrashRestartPolicy(-1, Duration.ofSeconds(30), Duration.ofMinutes(16), 200,
                Duration.ofMinutes(5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrashRestartPolicy(2, Duration.ofSeconds(30), Duration.ofMinutes(16), 0,
                Duration.ofMinutes(5))).isInstanceOf(IllegalArgumentException.class);
    }

    // Through the state machine: what ActualLrp.crash does with the policy.

    @Test
    void firstTwoCrashesOfAnInstanceRestartItAtOnceAndTheThirdLeavesItCrashed() {
        ActualLrp lrp = ActualLrpFixtures.inState(ActualLrpState.RUNNING);
        Instant now = T0.plusSeconds(60);
        assertThat(lrp.crash(OWNER, "exit 1", POLICY, now)).isEqualTo(ActualLrpState.UNCLAIMED);
        runAgain(lrp, now);
        assertThat(lrp.crash(OWNER, "exit 1", POLICY, now.plusSeconds(60))).isEqualTo(ActualLrpState.UNCLAIMED);
        runAgain(lrp, now.plusSeconds(60));
        assertThat(lrp.crash(OWNER, "exit 1", POLICY, now.plusSeconds(120))).isEqualTo(ActualLrpState.CRASHED);
        assertThat(lrp.crashCount()).isEqualTo(3);
        assertThat(lrp.snapshot(POLICY).nextRestartAt()).isEqualTo(now.plusSeconds(150).toEpochMilli());
    }

    @Test
    void crashAfterRunningMoreThanFiveMinutesResetsTheCountThroughTheStateMachine() {
        ActualLrp lrp = ActualLrpFixtures.inState(ActualLrpState.RUNNING);
        Instant now = T0;
        for (int i = 0; i < 2; i++) {
            now = now.plusSeconds(10);
            lrp.crash(OWNER, "exit 1", POLICY, now);
            runAgain(lrp, now);
        }
        assertThat(lrp.crashCount()).isEqualTo(2);
        Instant longAfter = now.plus(Duration.ofMinutes(5)).plusSeconds(1);
        assertThat(lrp.crash(OWNER, "exit 1", POLICY, longAfter)).isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(lrp.crashCount()).isEqualTo(1);
    }

    @Test
    void crashOfAClaimedInstanceNeverResetsTheCount() {
        ActualLrp lrp = ActualLrpFixtures.inState(ActualLrpState.RUNNING);
        lrp.crash(OWNER, "exit 1", POLICY, T0.plusSeconds(1));
        lrp.claim(OWNER, null, T0.plusSeconds(2));
        // claimed for an hour (a slow start) is not "running for more than 5 minutes"
        assertThat(lrp.crash(OWNER, "failed to start within 3600 s", POLICY, T0.plus(Duration.ofHours(1))))
                .isEqualTo(ActualLrpState.UNCLAIMED);
        assertThat(lrp.crashCount()).isEqualTo(2);
    }

    private static void runAgain(ActualLrp lrp, Instant at) {
        lrp.claim(OWNER, null, at);
        lrp.start(OWNER, NET, null, at);
    }
}
