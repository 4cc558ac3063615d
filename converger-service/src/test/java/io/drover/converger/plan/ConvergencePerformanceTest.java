package io.drover.converger.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.CrashRestartPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** SPEC 11 P2's decision half: a plan over 100,000 actual LRPs. Prints the figure; no tight timing assertion. */
class ConvergencePerformanceTest {

    private static final int LRPS = 10_000;
    private static final int INSTANCES = 10;
    private static final int CELLS = 1_000;

    @Test
    void plansOverAHundredThousandActualsWellUnderASecond() {
        ConvergenceSnapshot snapshot = snapshotWithOneCellLost();
        Convergence convergence = new Convergence(CrashRestartPolicy.defaults(), Duration.ofSeconds(30),
                Duration.ofMinutes(5), Duration.ofSeconds(6), 5_000, 5_000);

        long coldStart = System.nanoTime();
        Plan plan = convergence.plan(snapshot);
        long coldMicros = (System.nanoTime() - coldStart) / 1_000;
        long bestMicros = Long.MAX_VALUE;
        for (int run = 0; run < 20; run++) {
            long start = System.nanoTime();
            convergence.plan(snapshot);
            bestMicros = Math.min(bestMicros, (System.nanoTime() - start) / 1_000);
        }

        System.out.printf("convergence-plan-benchmark actuals=%d first_ms=%.1f warm_best_ms=%.1f actions=%d%n",
                snapshot.actuals().size(), coldMicros / 1000.0, bestMicros / 1000.0, plan.totalActions());
        assertThat(plan.lostCell()).hasSize(100);
        assertThat(plan.missingInstances()).isEqualTo(LRPS / 100);
        assertThat(plan.totalActions()).isEqualTo(100 + LRPS / 100);
        assertThat(coldMicros).as("a cold plan over 100,000 actuals, in microseconds").isLessThan(5_000_000);
    }

    /** 10,000 LRPs x 10 instances RUNNING on 1,000 cells, one cell lost, and every 100th LRP scaled up by one. */
    private static ConvergenceSnapshot snapshotWithOneCellLost() {
        Instant now = Instant.parse("2026-01-01T12:00:00Z");
        List<Desired> desired = new ArrayList<>(LRPS);
        List<Actual> actuals = new ArrayList<>(LRPS * INSTANCES);
        Set<String> liveCells = new HashSet<>();
        for (int c = 1; c < CELLS; c++) {
            liveCells.add("cell-" + c);
        }
        int placed = 0;
        for (int l = 0; l < LRPS; l++) {
            String guid = UUID.nameUUIDFromBytes(("lrp-" + l).getBytes()).toString();
            desired.add(new Desired(guid, "cf-apps", l % 100 == 0 ? INSTANCES + 1 : INSTANCES));
            for (int i = 0; i < INSTANCES; i++) {
                String cell = "cell-" + (placed++ % CELLS);
                actuals.add(new Actual(guid, i, "cf-apps", ActualLrpState.RUNNING, cell, 0,
                        now.minusSeconds(3600), null, null));
            }
        }
        return new ConvergenceSnapshot(now, desired, actuals, liveCells, Set.of("cf-apps"),
                ConvergenceSnapshot.Pipeline.caughtUp(now));
    }
}
