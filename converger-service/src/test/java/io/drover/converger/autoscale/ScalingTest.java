package io.drover.converger.autoscale;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.converger.autoscale.Scaling.Decision;
import io.drover.converger.autoscale.Scaling.Input;
import io.drover.converger.autoscale.Scaling.Instance;
import io.drover.model.autoscale.Recommendation;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.AutoscalingPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Each case: an LRP's policy, size, instances and earlier proposals; expect exactly this size and why. */
class ScalingTest {

    private static final Instant NOW = Instant.parse("2026-12-03T10:00:00Z");
    private static final Duration WARMUP = Duration.ofSeconds(10);
    /** 2 to 6 instances at 60 % CPU, up at once, down after 300 s. */
    private static final AutoscalingPolicy CPU_60 = new AutoscalingPolicy(2, 6, 60, null, 0, 300);

    static Stream<Arguments> cases() {
        return Stream.of(
                // the proportional rule and its tolerance
                row("a mean within 10 % of the target holds", at(2).cpu(63, 63), 2, "steady at 2"),
                row("just outside the band moves", at(2).cpu(67, 67), 3, "scaling up"),
                row("ceil(current x mean / target)", at(2).cpu(120, 120), 4, "scaling up"),
                row("at most doubling per step", at(2).cpu(300, 300), 4, "at most doubling"),
                row("never above max_instances", at(4).cpu(300, 300, 300, 300), 6, "held at max_instances 6"),
                row("never below min_instances", at(3).cpu(1, 1, 1).policy(2, 6, 60, null, 0, 0), 2,
                        "held at min_instances 2"),
                row("a size below min is brought up to it", at(1).cpu(60).policy(2, 6, 60, null, 0, 0), 2,
                        "held at min_instances 2"),
                // stabilisation windows
                row("a drop waits for the scale-down delay", at(4).cpu(10, 10, 10, 10).before(100, 4), 4,
                        "waiting for the scale-down delay (300 s)"),
                row("after the delay it shrinks to what every proposal of the window allows",
                        at(4).cpu(10, 10, 10, 10).before(301, 6).before(200, 2).before(100, 2), 2, "scaling down"),
                row("within the window only down to the greatest proposal",
                        at(5).cpu(10, 10, 10, 10, 10).before(250, 3).before(100, 2), 3, "as far as every proposal"),
                row("a rise waits for the scale-up delay", at(2).cpu(120, 120).policy(2, 6, 60, null, 60, 300)
                        .before(30, 2), 2, "waiting for the scale-up delay (60 s)"),
                row("after the scale-up delay it grows to the least proposal of the window",
                        at(2).cpu(150, 150).policy(2, 6, 60, null, 60, 300).before(70, 2).before(30, 3), 3,
                        "as far as every proposal"),
                row("a new policy holds the size for its scale-down delay", at(4).cpu(10, 10, 10, 10), 4,
                        "waiting for the scale-down delay (300 s)"),
                row("but rises at once with no scale-up delay", at(2).cpu(90, 90), 3, "scaling up"),
                row("a spike and a drop inside the down window do not flap",
                        at(4).cpu(10, 10, 10, 10).before(60, 4).before(30, 1), 4, "waiting for the scale-down"),
                // who counts
                row("missing figures count as at the target on a way down", at(2).cpu(10).missing(1), 2,
                        "steady at 2"),
                row("missing figures count as idle on a way up", at(2).cpu(120).missing(1), 2, "steady at 2"),
                row("starting instances count as idle on a way up", at(2).cpu(120).starting(1), 2, "steady at 2"),
                row("but do not stop a rise that outweighs them", at(2).cpu(180).starting(1), 3, "scaling up"),
                row("a RUNNING instance in its warm-up is still starting", at(2).cpu(120).warming(1), 2,
                        "steady at 2"),
                row("starting instances do not slow a way down", at(4).cpu(10, 10).starting(2)
                        .policy(1, 6, 60, null, 0, 0), 1, "scaling down"),
                row("a crashed instance is not counted", at(2).cpu(120).crashed(1), 2, "steady at 2"),
                row("no figures at all: no decision", at(3).starting(2).missing(1), 3, "no figures"),
                // several targets
                row("the larger proposal of two targets wins", at(2).cpu(30, 30).memory(90, 90)
                        .policy(1, 6, 60, 60, 0, 0), 3, "scaling up"),
                row("a target without figures forbids a scale-down", at(3).cpu(10, 10, 10).memory(null, null, null)
                        .policy(1, 6, 60, 80, 0, 0), 3, "steady at 3"),
                row("but not a scale-up", at(2).cpu(120, 120).memory(null, null).policy(1, 6, 60, 80, 0, 0), 4,
                        "scaling up"),
                // deployments
                row("an active deployment pauses it", at(2).cpu(300, 300).deploying(), 2,
                        "paused: a deployment is in progress"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, Given given, int desired, String condition) {
        Decision decision = Scaling.decide(given.input());
        assertThat(decision.desired()).isEqualTo(desired);
        assertThat(decision.condition()).contains(condition);
    }

    @Test
    void theDecisionShowsTheMeansAndWhatItCounted() {
        Decision decision = Scaling.decide(at(2).cpu(90, 110).memory(20, 40).missing(1).policy(1, 6, 60, 50, 0, 0)
                .input());
        assertThat(decision.cpuMean()).isEqualTo(100.0);
        assertThat(decision.memoryMean()).isEqualTo(30.0);
        assertThat(decision.counted()).isEqualTo(2);
        assertThat(decision.figures()).isEqualTo("cpu 100.0% of target 60% over 2 instances, "
                + "memory 30.0% of target 50% over 2 instances");
    }

    @Test
    void eachDecisionKeepsItsProposalAndDropsWhatNoWindowNeeds() {
        Decision decision = Scaling.decide(at(4).cpu(10, 10, 10, 10).before(400, 5).before(299, 4).input());
        assertThat(decision.recommendations()).containsExactly(new Recommendation(NOW.minusSeconds(299), 4),
                new Recommendation(NOW, 1));
    }

    @Test
    void aPausedOrBlindTickRecordsNoProposal() {
        assertThat(Scaling.decide(at(2).cpu(300, 300).deploying().before(10, 2).input()).recommendations())
                .containsExactly(new Recommendation(NOW.minusSeconds(10), 2));
        assertThat(Scaling.decide(at(2).starting(2).input()).recommendations()).isEmpty();
    }

    @Test
    void withNoProposalToGoByTheSizeAsItIsCountsAsProposed() {
        assertThat(Scaling.decide(at(4).cpu(10, 10, 10, 10).input()).recommendations())
                .containsExactly(new Recommendation(NOW, 4), new Recommendation(NOW, 1));
    }

    @Test
    void aManualScaleInsideTheRangeIsWhereItContinuesFrom() {
        // a user scaled to 5 under a steady load the last proposals put at 3: the windows' proposals still rule
        assertThat(Scaling.decide(at(5).cpu(36, 36, 36, 36, 36).before(200, 3).before(100, 3).input()).desired())
                .isEqualTo(3);
        // and a rise from there doubles from 5, not from what the autoscaler had set
        assertThat(Scaling.decide(at(5).cpu(120, 120, 120, 120, 120).policy(2, 20, 60, null, 0, 300).input())
                .desired()).isEqualTo(10);
    }

    private static Arguments row(String name, Given given, int desired, String condition) {
        return Arguments.of(name, given, desired, condition);
    }

    private static Given at(int current) {
        return new Given(current);
    }

    /** A case, built as a sentence: {@code at(2).cpu(120, 120).before(30, 2)}. */
    static final class Given {

        private final int current;
        private AutoscalingPolicy policy = CPU_60;
        private final List<Double> cpu = new ArrayList<>();
        private final List<Double> memory = new ArrayList<>();
        private final List<Instance> others = new ArrayList<>();
        private final List<Recommendation> recommendations = new ArrayList<>();
        private boolean deploying;

        Given(int current) {
            this.current = current;
        }

        Given policy(int min, int max, Integer cpuTarget, Integer memoryTarget, int up, int down) {
            policy = new AutoscalingPolicy(min, max, cpuTarget, memoryTarget, up, down);
            return this;
        }

        /** RUNNING instances past their warm-up with these CPU figures. */
        Given cpu(double... percents) {
            for (double p : percents) {
                cpu.add(p);
            }
            return this;
        }

        /** Memory figures of the same instances, in order (null: none). */
        Given memory(Double... percents) {
            memory.addAll(java.util.Arrays.asList(percents));
            return this;
        }

        Given memory(double... percents) {
            for (double p : percents) {
                memory.add(p);
            }
            return this;
        }

        Given missing(int n) {
            return add(n, ActualLrpState.RUNNING, NOW.minusSeconds(60));
        }

        Given warming(int n) {
            return add(n, ActualLrpState.RUNNING, NOW.minusSeconds(5));
        }

        Given starting(int n) {
            return add(n, ActualLrpState.CLAIMED, NOW.minusSeconds(1));
        }

        Given crashed(int n) {
            return add(n, ActualLrpState.CRASHED, NOW.minusSeconds(1));
        }

        /** A proposal of {@code instances} made {@code secondsAgo}. */
        Given before(int secondsAgo, int instances) {
            recommendations.add(new Recommendation(NOW.minusSeconds(secondsAgo), instances));
            recommendations.sort(java.util.Comparator.comparing(Recommendation::at));
            return this;
        }

        Given deploying() {
            deploying = true;
            return this;
        }

        private Given add(int n, ActualLrpState state, Instant since) {
            for (int i = 0; i < n; i++) {
                others.add(new Instance(state, since, null, null));
            }
            return this;
        }

        Input input() {
            List<Instance> instances = new ArrayList<>();
            int measured = Math.max(cpu.size(), memory.size());
            for (int i = 0; i < measured; i++) {
                instances.add(new Instance(ActualLrpState.RUNNING, NOW.minusSeconds(60),
                        i < cpu.size() ? cpu.get(i) : null, i < memory.size() ? memory.get(i) : null));
            }
            instances.addAll(others);
            return new Input(policy, current, instances, recommendations, deploying, NOW, WARMUP);
        }

        @Override
        public String toString() {
            return "at " + current;
        }
    }
}
