package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.drover.model.usage.UsageRound;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/** Usage rounds as reps write them (one statement each) and the figures the API reads back, and the cell's isolation. */
@SpringBootTest
@WithDroverInfrastructure
class InstanceUsagesIT {

    static final Duration TTL = Duration.ofSeconds(15);

    @Autowired
    InstanceUsages usages;
    @Autowired
    ActualLrpLifecycle lifecycle;
    @Autowired
    CellPresence cells;
    @Autowired
    MutableClock clock;
    @Autowired
    JdbcTemplate jdbc;

    String guid;
    String cell;

    @BeforeEach
    void newProcess() {
        guid = "usage-" + UUID.randomUUID();
        cell = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(cell, CellIsolation.CGROUPS_V1), TTL);
    }

    @Test
    void aCellRegistersHowItIsolatesAndARegistrationThatDoesNotSayIsUnknown() {
        assertThat(cells.find(cell).orElseThrow().registration().isolation()).isEqualTo(CellIsolation.CGROUPS_V1);
        cells.heartbeat(registration(cell, CellIsolation.SAMPLING), TTL);
        assertThat(cells.find(cell).orElseThrow().registration().isolation()).isEqualTo(CellIsolation.SAMPLING);
        cells.heartbeat(new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 1024, 4), List.of(),
                List.of(), List.of()), TTL);
        assertThat(cells.find(cell).orElseThrow().registration().isolation()).isEqualTo(CellIsolation.UNKNOWN);
    }

    @Test
    void onlyTheFiguresOfTheIncarnationEachIndexNamesNowAreShown() {
        claim(0, "ig-0");
        claim(1, "ig-1");
        usages.write(UsageRound.of(List.of(cell), List.of(usage(0, "ig-0", 1.5), usage(1, "ig-1", 2.5),
                usage(1, "ig-old", 9.0), usage(2, "ig-unknown", 9.0)), Set.of(), true));

        assertThat(usages.current(guid)).extracting(InstanceUsage::index, InstanceUsage::instanceGuid,
                InstanceUsage::cpuPercent).containsExactly(tuple(0, ig("ig-0"), 1.5), tuple(1, ig("ig-1"), 2.5));
        InstanceUsage first = usages.current(guid).get(0);
        assertThat(first.cellId()).isEqualTo(cell);
        assertThat(first.memoryBytes()).isEqualTo(64L << 20);
        assertThat(first.memoryLimitBytes()).isEqualTo(128L << 20);
        assertThat(first.diskBytes()).isEqualTo(4096);
        assertThat(first.startedAt()).isEqualTo(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        assertThat(usages.current("nothing-" + guid)).isEmpty();
    }

    @Test
    void aDeltaRoundUpsertsWhatChangedAndDeletesWhatIsGone() {
        claim(0, "ig-0");
        claim(1, "ig-1");
        usages.write(UsageRound.of(List.of(cell), List.of(usage(0, "ig-0", 1.0), usage(1, "ig-1", 1.0)), Set.of(),
                true));

        usages.write(UsageRound.of(List.of(cell), List.of(usage(0, "ig-0", 50.0)), Set.of(ig("ig-1")), false));

        assertThat(rows(cell)).containsOnlyKeys("ig-0").containsEntry("ig-0", 50.0);
    }

    @Test
    void aFullRoundReplacesTheRowsOfItsCellsAndSweepsCellsLongGoneButNoOtherLiveCell() {
        String neighbour = "cell-" + UUID.randomUUID();
        String gone = "cell-" + UUID.randomUUID();
        String unregistered = "cell-" + UUID.randomUUID();
        cells.heartbeat(registration(gone, CellIsolation.SAMPLING), TTL);
        usages.write(UsageRound.of(List.of(cell, neighbour, gone, unregistered), List.of(usage(0, "ig-a", 1, cell),
                usage(1, "ig-b", 1, cell), usage(2, "ig-n", 1, neighbour), usage(3, "ig-g", 1, gone),
                usage(4, "ig-u", 1, unregistered)), Set.of(), false));
        clock.advance(TTL.plus(InstanceUsages.SWEEP_AFTER).plusSeconds(1));
        cells.heartbeat(registration(cell, CellIsolation.CGROUPS_V1), TTL);
        cells.heartbeat(registration(neighbour, CellIsolation.CGROUPS_V1), TTL);

        usages.write(UsageRound.of(List.of(cell), List.of(usage(0, "ig-a", 2, cell)), Set.of(), true));

        assertThat(rows(cell)).containsOnlyKeys("ig-a").containsEntry("ig-a", 2.0);
        assertThat(rows(neighbour)).containsOnlyKeys("ig-n");
        assertThat(rows(gone)).isEmpty();
        assertThat(rows(unregistered)).isEmpty();
    }

    @Test
    void anEmptyRoundSendsNothing() {
        assertThat(UsageRound.of(List.of(cell), List.of(), Set.of(), false).isEmpty()).isTrue();
        assertThat(UsageRound.of(List.of(cell), List.of(usage(0, "ig-0", 1.0)), Set.of(ig("ig-0")), false).removed())
                .as("an instance written in the same round is not removed").isEmpty();
    }

    private void claim(int index, String instanceGuid) {
        ActualLrpKey key = ActualLrpKey.of(guid, index);
        lifecycle.createUnclaimed(guid, "usage", List.of(index), "test", Actor.service("converger"));
        lifecycle.place(UUID.randomUUID(), Map.of(key, cell), Actor.service("auctioneer"));
        lifecycle.claim(key, InstanceOwner.of(ig(instanceGuid), cell), Actor.cell(cell));
    }

    /** Instance guids are unique across the whole table: each test gets its own. */
    private String ig(String name) {
        return name + "-" + guid;
    }

    private Map<String, Double> rows(String cellId) {
        Map<String, Double> rows = new java.util.HashMap<>();
        jdbc.query("SELECT instance_guid, cpu_percent FROM instance_usage WHERE cell_id = ?", rs -> {
            rows.put(rs.getString(1).substring(0, rs.getString(1).length() - guid.length() - 1), rs.getDouble(2));
        }, cellId);
        return rows;
    }

    private InstanceUsage usage(int index, String instanceGuid, double cpu) {
        return usage(index, instanceGuid, cpu, cell);
    }

    private InstanceUsage usage(int index, String instanceGuid, double cpu, String cellId) {
        Instant started = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        return new InstanceUsage(guid, index, ig(instanceGuid), cellId, cpu, 64L << 20,
                128L << 20, 4096, started);
    }

    private static CellRegistration registration(String cell, CellIsolation isolation) {
        return new CellRegistration(cell, "z1", "10.0.0.1", new Resources(1024, 4096, 10), List.of("preloaded:host"),
                List.of(), List.of(), isolation);
    }
}
