package io.drover.model.deployment;

import static io.drover.model.lrp.ActualLrpState.CLAIMED;
import static io.drover.model.lrp.ActualLrpState.CRASHED;
import static io.drover.model.lrp.ActualLrpState.RUNNING;
import static io.drover.model.lrp.ActualLrpState.UNCLAIMED;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.deployment.Step.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The step function as a table. Slots are written as {@code "v1"} (RUNNING at version 1 for long), {@code "v2"} (new
 * version, RUNNING for long), {@code "v2 young"} (RUNNING for less than min_healthy_time), {@code "v2 unclaimed"},
 * {@code "v2 claimed"}, {@code "v2 crashed"}, {@code "v1 crashed"}, {@code "-"} (no record); a trailing {@code "+twin"}
 * says a deployment's twin keeps the old instance serving.
 */
class RolloutTest {

    static final Instant NOW = Instant.parse("2026-11-30T22:00:00Z");
    static final Instant STARTED = NOW.minusSeconds(60);
    static final Strategy DEFAULT = Strategy.DEFAULT;

    static Strategy strategy(String surge, String unavailable) {
        return new Strategy(Amount.parse(surge), Amount.parse(unavailable), Duration.ofSeconds(10),
                Duration.ofMinutes(10), true, 0);
    }

    static Strategy canary(int n) {
        return new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(10), Duration.ofMinutes(10), true,
                n);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // name, strategy, instances, slots, surge, replace, removeTwins, create, verdict
                row("25% surge of 6 rounds up to 2, none unavailable", DEFAULT, 6,
                        "v1,v1,v1,v1,v1,v1", "0,1", "", "", "", Verdict.CONTINUE),
                row("25% surge of 3 rounds up to 1", DEFAULT, 3, "v1,v1,v1", "0", "", "", "", Verdict.CONTINUE),
                row("a surge is at least 1 even at 0%", strategy("0%", "0"), 4, "v1,v1,v1,v1", "0", "", "", "",
                        Verdict.CONTINUE),
                row("surging slots use the budget up: nothing more starts", DEFAULT, 6,
                        "v2 unclaimed+twin,v2 young+twin,v1,v1,v1,v1", "", "", "", "", Verdict.CONTINUE),
                row("a new instance RUNNING for min_healthy_time frees its twin and the next slot surges", DEFAULT, 6,
                        "v2+twin,v2 young+twin,v1,v1,v1,v1", "2", "", "0", "", Verdict.CONTINUE),
                row("max_unavailable 2 replaces two more in place beyond the surge", strategy("1", "2"), 6,
                        "v1,v1,v1,v1,v1,v1", "0", "1,2", "", "", Verdict.CONTINUE),
                row("max_unavailable counts slots already down", strategy("1", "2"), 6,
                        "v1 crashed,v1,v1,v1,v1,v1", "1", "0,2", "", "", Verdict.CONTINUE),
                row("an old slot serving nothing is replaced at no cost", DEFAULT, 4, "v1 crashed,v1 unclaimed,v1,v1",
                        "2", "0,1", "", "", Verdict.CONTINUE),
                row("a crashing new instance keeps its twin and blocks the next surge", DEFAULT, 4,
                        "v2 crashed+twin,v1,v1,v1", "", "", "", "", Verdict.CONTINUE),
                row("a slot removed after its stop is created again", DEFAULT, 3, "-+twin,v1,v1", "", "", "", "0",
                        Verdict.CONTINUE),
                row("scaled up mid-rollout: the new slots are created at the new version", DEFAULT, 4,
                        "v2,v2,v1", "2", "", "", "3", Verdict.CONTINUE),
                row("scaled down mid-rollout: slots beyond instances are the converger's", DEFAULT, 2,
                        "v2,v2,v1+twin,v1", "", "", "", "", Verdict.SUCCEEDED),
                row("all updated, no twins: done", DEFAULT, 3, "v2,v2,v2", "", "", "", "", Verdict.SUCCEEDED),
                row("all updated: the last twins go and the deployment is done", DEFAULT, 3, "v2,v2+twin,v2", "", "",
                        "1", "", Verdict.SUCCEEDED),
                row("a canary replaces its share, then waits", canary(2), 6, "v2+twin,v2 young+twin,v1,v1,v1,v1",
                        "", "", "0", "", Verdict.CONTINUE),
                row("canaries updated: waiting for promotion", canary(2), 6, "v2,v2,v1,v1,v1,v1", "", "", "", "",
                        Verdict.WAITING_FOR_PROMOTION),
                row("a revert replaces the crashing slots at once while their twins serve", DEFAULT, 4,
                        "v2 crashed+twin,v2 unclaimed+twin,v2 claimed,v1", "", "0,1,2", "", "", Verdict.CONTINUE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void step(String name, Strategy strategy, int instances, String slots, String surge, String replace,
            String removeTwins, String create, Verdict verdict) {
        Step step = Rollout.step(new Rollout.Input(DeploymentState.RUNNING, target(name), strategy, false, STARTED,
                instances, slots(slots, target(name)), NOW));
        assertThat(step.surge()).as("surge").isEqualTo(ints(surge));
        assertThat(step.replace()).as("replace").isEqualTo(ints(replace));
        assertThat(step.removeTwins()).as("remove twins").isEqualTo(ints(removeTwins));
        assertThat(step.create()).as("create").isEqualTo(ints(create));
        assertThat(step.verdict()).as("verdict").isEqualTo(verdict);
    }

    /** The revert case rolls back to version 1; every other case moves to version 2. */
    private static int target(String name) {
        return name.startsWith("a revert") ? 1 : 2;
    }

    @Test
    void noInstanceHealthyWithinTheProgressDeadlineFails() {
        Strategy s = new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1), Duration.ofSeconds(30),
                true, 0);
        Step step = Rollout.step(new Rollout.Input(DeploymentState.RUNNING, 2, s, false, NOW.minusSeconds(31), 3,
                slots("v2 crashed+twin,v1,v1", 2), NOW));
        assertThat(step.verdict()).isEqualTo(Verdict.FAILED);
        assertThat(step.reason()).contains("progress deadline of 30 s").contains("1 crashed");
        assertThat(step.counts()).isEqualTo(new Step.Counts(3, 0, 3, 1));
    }

    @Test
    void anUpdatedInstanceMovesTheDeadline() {
        Strategy s = new Strategy(Amount.parse("1"), Amount.parse("0"), Duration.ofSeconds(1), Duration.ofSeconds(30),
                true, 0);
        List<Slot> slots = new ArrayList<>(slots("v1,v1", 2));
        slots.add(new Slot(2, RUNNING, 2, NOW.minusSeconds(10), 0, false));
        Step step = Rollout.step(new Rollout.Input(DeploymentState.RUNNING, 2, s, false, NOW.minusSeconds(31), 3,
                slots, NOW));
        assertThat(step.verdict()).isEqualTo(Verdict.CONTINUE);
        assertThat(step.progressAt()).isEqualTo(NOW.minusSeconds(9));
        assertThat(step.surge()).containsExactly(0);
    }

    @Test
    void aPausedDeploymentStartsNothingButStillFreesTwinsAndNeverFails() {
        Step step = Rollout.step(new Rollout.Input(DeploymentState.PAUSED, 2, DEFAULT, false, NOW.minus(Duration
                .ofHours(1)), 3, slots("v2+twin,v1,v1", 2), NOW));
        assertThat(step.surge()).isEmpty();
        assertThat(step.removeTwins()).containsExactly(0);
        assertThat(step.verdict()).isEqualTo(Verdict.CONTINUE);
    }

    @Test
    void aPromotedCanaryGoesOn() {
        Step step = Rollout.step(new Rollout.Input(DeploymentState.RUNNING, 2, canary(2), true, STARTED, 4,
                slots("v2,v2,v1,v1", 2), NOW));
        assertThat(step.surge()).containsExactly(2);
    }

    @Test
    void neverFewerThanInstancesMinusMaxUnavailableServing() {
        for (String unavailable : List.of("0", "1", "2", "50%")) {
            Strategy s = strategy("2", unavailable);
            Step step = Rollout.step(new Rollout.Input(DeploymentState.RUNNING, 2, s, false, STARTED, 8,
                    slots("v1,v1,v1,v1,v1,v1,v1,v1", 2), NOW));
            int down = step.replace().size();
            assertThat(8 - down).as(unavailable).isGreaterThanOrEqualTo(8 - s.unavailable(8));
        }
    }

    @Test
    void amountsParseCountsAndShares() {
        assertThat(Amount.parse("25%").of(6, true)).isEqualTo(2);
        assertThat(Amount.parse("25%").of(6, false)).isEqualTo(1);
        assertThat(Amount.parse(" 3 ").of(100, true)).isEqualTo(3);
    }

    private static Arguments row(String name, Strategy s, int instances, String slots, String surge, String replace,
            String removeTwins, String create, Verdict verdict) {
        return Arguments.of(name, s, instances, slots, surge, replace, removeTwins, create, verdict);
    }

    private static List<Slot> slots(String spec, int target) {
        List<Slot> slots = new ArrayList<>();
        String[] parts = spec.split(",");
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].strip();
            boolean twin = p.endsWith("+twin");
            p = p.replace("+twin", "");
            if (p.equals("-")) {
                slots.add(Slot.missing(i, twin));
                continue;
            }
            String[] words = p.split(" ");
            int version = Integer.parseInt(words[0].substring(1));
            String how = words.length > 1 ? words[1] : "running";
            Instant since = how.equals("young") ? NOW.minusSeconds(3) : NOW.minusSeconds(30);
            slots.add(switch (how) {
                case "unclaimed" -> new Slot(i, UNCLAIMED, version, since, 0, twin);
                case "claimed" -> new Slot(i, CLAIMED, version, since, 0, twin);
                case "crashed" -> new Slot(i, CRASHED, version, since, 3, twin);
                default -> new Slot(i, RUNNING, version, since, 0, twin);
            });
        }
        return slots;
    }

    private static List<Integer> ints(String csv) {
        return csv.isBlank() ? List.of() : Stream.of(csv.split(",")).map(String::strip).map(Integer::parseInt).toList();
    }
}
