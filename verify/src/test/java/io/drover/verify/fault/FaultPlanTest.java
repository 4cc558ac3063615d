package io.drover.verify.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.check.FaultKinds;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FaultPlanTest {

    private static final Set<String> LOCAL = Set.of(FaultKinds.REP_KILL, FaultKinds.DRAIN, FaultKinds.DATABASE,
            FaultKinds.KAFKA, FaultKinds.MESSAGES, FaultKinds.WORKLOAD_KILL);
    private static final Set<String> COMPOSE = Set.of(FaultKinds.REP_KILL, FaultKinds.DRAIN, FaultKinds.DATABASE,
            FaultKinds.KAFKA, FaultKinds.WORKLOAD_KILL, FaultKinds.LEADER_FREEZE, FaultKinds.PARTITION);
    private static final FaultPlan.Lengths COMPOSE_LENGTHS = FaultPlan.Lengths.compose(Duration.ofSeconds(10),
            Duration.ofSeconds(5));

    /** The plan of CI's run (docs/verification.md): a seed replays the plan it always had. */
    @Test
    void seedSeventeenPlansTheLocalFaultsItAlwaysPlanned() {
        List<FaultPlan.Planned> plan = FaultPlan.of(17, Duration.ofSeconds(90), LOCAL, 3,
                FaultPlan.Lengths.local(Duration.ofSeconds(10)));

        assertThat(plan.stream().map(p -> p.kind() + " " + p.rep() + " " + p.at().toMillis() + " "
                + p.length().toMillis())).containsExactly(
                        "kafka-outage 1 8000 31617",
                        "message-faults -1 9000 27000",
                        "workload-kill -1 10898 0",
                        "workload-kill -1 26161 0",
                        "workload-kill -1 41485 0",
                        "drain 0 44030 45000",
                        "workload-kill -1 59320 0",
                        "workload-kill -1 70636 0",
                        "database-restart 0 72203 6568",
                        "workload-kill -1 81480 0",
                        "rep-kill 1 84702 5298");
    }

    @ParameterizedTest
    @ValueSource(longs = { 1, 17, 23, 4711, 986_543 })
    void aComposePlanKeepsEachFaultWithinTheLengthsDockerFaultsNeed(long seed) {
        List<FaultPlan.Planned> plan = FaultPlan.of(seed, Duration.ofMinutes(30), COMPOSE, 2, COMPOSE_LENGTHS);

        assertThat(plan.stream().map(FaultPlan.Planned::kind).collect(Collectors.toSet())).isEqualTo(COMPOSE);
        for (FaultPlan.Planned p : plan) {
            long seconds = p.length().toSeconds();
            assertThat(p.at()).as(p.toString()).isLessThan(Duration.ofMinutes(30).minusSeconds(5));
            if (p.at().plus(p.length()).equals(Duration.ofMinutes(30))) {
                continue; // cut short by the workload's end, where every fault is healed
            }
            switch (p.kind()) {
                case FaultKinds.PARTITION -> assertThat(seconds).as(p.toString()).isBetween(20L, 60L);
                case FaultKinds.KAFKA -> assertThat(seconds).as(p.toString()).isBetween(30L, 60L);
                case FaultKinds.LEADER_FREEZE -> assertThat(seconds).as("past the 5 s lock TTL: " + p)
                        .isBetween(8L, 12L);
                case FaultKinds.REP_KILL -> assertThat(seconds).as("past the 10 s presence TTL: " + p)
                        .isBetween(14L, 18L);
                case FaultKinds.DATABASE -> assertThat(seconds).as(p.toString()).isBetween(5L, 10L);
                default -> {
                }
            }
            if (p.rep() >= 0) {
                assertThat(p.rep()).isLessThan(2);
            }
        }
    }

    @Test
    void aHeavyFaultBeginsOnlyAfterThePreviousOneEndedButADrainWhichEndsWhenItsCellLeft() {
        List<FaultPlan.Planned> heavy = FaultPlan.of(5, Duration.ofMinutes(30), COMPOSE, 2, COMPOSE_LENGTHS).stream()
                .filter(p -> !p.kind().equals(FaultKinds.WORKLOAD_KILL)).toList();

        for (int i = 1; i < heavy.size(); i++) {
            FaultPlan.Planned before = heavy.get(i - 1);
            Duration ended = before.at().plus(before.kind().equals(FaultKinds.DRAIN) ? Duration.ofSeconds(25)
                    : before.length());
            assertThat(heavy.get(i).at()).as(before + " then " + heavy.get(i)).isGreaterThan(ended);
        }
    }

    @Test
    void aFaultTheClusterHasNoLengthForIsNotPlanned() {
        List<FaultPlan.Planned> plan = FaultPlan.of(17, Duration.ofMinutes(5), Set.of(FaultKinds.PARTITION,
                FaultKinds.KAFKA), 3, FaultPlan.Lengths.local(Duration.ofSeconds(10)));

        assertThat(plan).isNotEmpty().allMatch(p -> p.kind().equals(FaultKinds.KAFKA));
    }
}
