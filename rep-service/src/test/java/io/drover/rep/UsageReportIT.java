package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Per-instance usage through the real database: the rep measures its cell's containers every few hundred milliseconds
 * here, writes what changed (one statement per round at most, nothing when nothing changed), removes the rows of
 * instances that are gone, and exports them as gauges. The simulated executor's figures are constant per container.
 */
class UsageReportIT extends SingleCellSupport {

    @Autowired
    InstanceUsages usages;
    @Autowired
    MeterRegistry meters;
    @Autowired
    CellPresence presence;

    @Test
    void aSimulatedCellRegistersAsSimulated() {
        await().atMost(Duration.ofSeconds(20)).until(() -> presence.find(CELL).isPresent());
        assertThat(presence.find(CELL).orElseThrow().registration().isolation()).isEqualTo(CellIsolation.SIMULATED);
    }

    @Test
    void runningInstancesGetTheirFiguresWrittenOnceAndRemovedWhenTheyAreGone() {
        String guid = lrps.desire("usage", 3, 128);
        lrps.place(guid, CELL, 0, 1, 2);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .filter(a -> a.state() == ActualLrpState.RUNNING).count() == 3);

        await().atMost(Duration.ofSeconds(20)).until(() -> usages.current(guid).size() == 3);
        assertThat(usages.current(guid)).allSatisfy(u -> {
            assertThat(u.cellId()).isEqualTo(CELL);
            assertThat(u.memoryLimitBytes()).isEqualTo(128L << 20);
            assertThat(u.memoryBytes()).isBetween(1L, 128L << 20);
            assertThat(u.cpuPercent()).isBetween(0.2, 5.0);
            assertThat(u.diskBytes()).isPositive();
        }).extracting(InstanceUsage::instanceGuid).containsExactlyInAnyOrderElementsOf(
                lrps.all(guid).stream().map(ActualLrp::instanceGuid).toList());
        assertThat(meters.find("drover.rep.instance.memory").tags("cell", CELL, "process_guid", guid).gauges())
                .hasSize(3);

        Map<String, String> versions = rowVersions(guid);
        double rounds = rounds();
        double writes = writes();
        await().atMost(Duration.ofSeconds(20)).until(() -> rounds() >= rounds + 3);
        assertThat(rowVersions(guid)).as("constant figures are not written again").isEqualTo(versions);
        assertThat(writes() - writes).as("statements per round, at most one").isLessThanOrEqualTo(rounds() - rounds);

        actual.retire(List.of(ActualLrpKey.of(guid, 1)), "scaled down", Lrps.TEST);

        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForObject(
                "SELECT count(*) FROM instance_usage WHERE process_guid = ?", Integer.class, guid) == 2);
        assertThat(meters.find("drover.rep.instance.memory").tags("cell", CELL, "process_guid", guid).gauges())
                .hasSize(2);
    }

    /** instance_guid -> xmin: the transaction that last wrote the row. */
    private Map<String, String> rowVersions(String guid) {
        return jdbc.queryForList("SELECT instance_guid, xmin::text AS xmin FROM instance_usage WHERE process_guid = ?",
                guid).stream().collect(Collectors.toMap(r -> (String) r.get("instance_guid"),
                        r -> (String) r.get("xmin")));
    }

    private double rounds() {
        return meters.find("drover.rep.usage.round").timer().count();
    }

    private double writes() {
        return meters.find("drover.rep.usage.writes").counter().count();
    }
}
