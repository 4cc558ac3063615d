package io.drover.converger.pass;

import static io.drover.converger.pass.LrpFixtures.guid;
import static io.drover.converger.pass.LrpFixtures.keys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerIntegrationTest;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.leader.LeaderElection;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.read.LiveCells;
import io.drover.test.MutableClock;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A new leader's grace (docs/converger.md): the cells that died while no converger judged are spared rule 2 for a
 * while, so their reps can come back, but they stay dead in the database: nothing is scheduled onto them.
 */
@ConvergerIntegrationTest
class ElectionGraceIT {

    @Autowired
    MutableClock clock;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence cells;
    @Autowired
    LiveCells liveCells;
    @Autowired
    LeaderElection convergerLeaderElection;
    @Autowired
    MeterRegistry meters;

    @Test
    void aCellThatDiedWhileNobodyJudgedKeepsItsInstancesForTheGraceButStaysUnschedulable() {
        LrpFixtures fixtures = new LrpFixtures(desired, actual, cells);
        String cell = guid("cell-down-with-the-leader");
        String guid = guid("on-graced-cell");
        fixtures.heartbeat(cell, Duration.ofSeconds(15));
        fixtures.desire(guid, 2);
        keys(guid, 2).forEach(key -> fixtures.runOn(key, cell));
        Instant expiresAt = cells.find(cell).orElseThrow().expiresAt();

        convergerLeaderElection.stop();
        try {
            // a pass still running when the lock went may record itself; wait until none does
            AtomicReference<Double> seen = new AtomicReference<>(passes());
            await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(10))
                    .until(() -> {
                        double now = passes();
                        return seen.getAndSet(now) == now;
                    });
            clock.advance(Duration.ofSeconds(16)); // the cell's presence runs out while no converger judges
        } finally {
            convergerLeaderElection.start();
        }
        await().atMost(Duration.ofSeconds(10)).until(convergerLeaderElection::isLeader);
        double elected = passes();
        await().atMost(Duration.ofSeconds(10)).until(() -> passes() >= elected + 2);

        assertThat(cells.find(cell).orElseThrow().expiresAt()).as("the grace writes nothing").isEqualTo(expiresAt);
        assertThat(liveCells.schedulable()).extracting(Cell::cellId).doesNotContain(cell);
        assertThat(actuals.findByProcessGuid(guid)).as("rule 2 is held back for the grace").hasSize(2)
                .allMatch(a -> a.state() == ActualLrpState.RUNNING && cell.equals(a.cellId()));

        clock.advance(Duration.ofSeconds(16)); // the grace (cell-grace-on-election, 15 s) is over
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(actuals.findByProcessGuid(guid))
                .hasSize(2).allMatch(a -> a.state() == ActualLrpState.UNCLAIMED)
                .extracting(ActualLrp::cellId).containsOnlyNulls());
    }

    private double passes() {
        return meters.counter("drover.convergence.passes", "result", "ok").count();
    }
}
