package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.RunAction;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/** The dashboard's counts on real PostgreSQL, against what the lifecycle wrote through legal transitions. */
@SpringBootTest
@WithDroverInfrastructure
class TalliesIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    Tallies tallies;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    CellPresence presence;
    @Autowired
    MutableClock clock;

    @Test
    void instancesAreCountedByStateForADomainAProcessAndACell() {
        String domain = "tally-" + UUID.randomUUID();
        String web = desire(domain, 4);
        String big = desire(domain, 1);
        String cell = "cell-" + UUID.randomUUID();
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(4096, 4096, 10),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(60));
        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(web, 0), cell, ActualLrpKey.of(web, 1), cell,
                ActualLrpKey.of(web, 2), cell), TEST);
        actuals.claim(ActualLrpKey.of(web, 0), InstanceOwner.of("ig-0", cell), Actor.cell(cell));
        actuals.failPlacement(Map.of(ActualLrpKey.of(big, 0), "insufficient resources: memory"), TEST);

        assertThat(tallies.instancesByState(domain)).containsExactlyInAnyOrderEntriesOf(Map.of(
                ActualLrpState.UNCLAIMED, 4L, ActualLrpState.CLAIMED, 1L, ActualLrpState.RUNNING, 0L,
                ActualLrpState.CRASHED, 0L));
        Map<String, Tallies.ProcessTally> byProcess = tallies.byProcess(List.of(web, big, "no-such-process"));
        assertThat(byProcess).containsOnlyKeys(web, big);
        assertThat(byProcess.get(web).byState()).containsEntry(ActualLrpState.UNCLAIMED, 3L)
                .containsEntry(ActualLrpState.CLAIMED, 1L);
        assertThat(byProcess.get(web).placementError()).isNull();
        assertThat(byProcess.get(big).placementError()).isEqualTo("insufficient resources: memory");

        Tallies.CellTally onCell = tallies.byCell(List.of(cell), 2).get(cell);
        assertThat(onCell.byState()).containsEntry(ActualLrpState.CLAIMED, 1L)
                .containsEntry(ActualLrpState.UNCLAIMED, 2L);
        assertThat(onCell.total()).isEqualTo(3);
        assertThat(onCell.sample()).as("the first two in key order, the claimed and the placed alike")
                .containsExactly(new Tallies.InstanceMark(web, 0, ActualLrpState.CLAIMED),
                        new Tallies.InstanceMark(web, 1, ActualLrpState.UNCLAIMED));
        assertThat(tallies.byCell(List.of("cell-" + UUID.randomUUID()), 2)).isEmpty();
    }

    @Test
    void eventsAreCountedInAWindowOfTime() {
        long before = tallies.eventsSince(clock.instant().minusSeconds(60));
        desire("tally-" + UUID.randomUUID(), 2);
        assertThat(tallies.eventsSince(clock.instant().minusSeconds(60))).isGreaterThan(before);
    }

    private String desire(String domain, int instances) {
        String guid = "tally-" + UUID.randomUUID();
        desired.desire(new DesiredLrpDefinition(guid, domain, "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("100"), null, List.of(), null)), null, null, 30, List.of(),
                List.of(8080), 128, 64, 10, 5, List.of(), null, null, null, null), TEST);
        return guid;
    }
}
