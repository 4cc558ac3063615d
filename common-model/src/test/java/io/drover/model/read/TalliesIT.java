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
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.lrp.RunAction;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

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
    @Autowired
    JdbcTemplate jdbc;

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

    /**
     * The kept counts (V32's triggers) against {@code count(*)} of the rows, after every kind of write the lifecycle
     * makes (create, place, claim, start, crash, remove, an LRP's delete) from eight threads at once while a ninth
     * folds the counts over and over. Fails when any of the triggers is missing or a fold loses or repeats a row.
     */
    @Test
    void keptCountsEqualTheRowsThroughConcurrentWritesAndFolds() throws Exception {
        String domain = "tally-" + UUID.randomUUID();
        String cell = "cell-" + UUID.randomUUID();
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.2", new Resources(65536, 65536, 256),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(120));
        ExecutorService pool = Executors.newFixedThreadPool(9);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger folds = new AtomicInteger();
        Future<?> folder = pool.submit(() -> {
            while (writing.get()) {
                tallies.fold();
                folds.incrementAndGet();
            }
        });
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                for (int round = 0; round < 6; round++) {
                    lifeOfOneLrp(domain, cell, writer + round);
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(2, TimeUnit.MINUTES);
        }
        writing.set(false);
        folder.get(1, TimeUnit.MINUTES);
        pool.shutdown();

        assertThat(folds.get()).as("folds ran beside the writes").isGreaterThan(1);
        assertThat(tallies.instancesByState(domain)).as("the domain's kept counts").isEqualTo(counted(domain));
        assertThat(tallies.instancesByState(null)).as("everything's kept counts").isEqualTo(counted(null));
        tallies.fold();
        assertThat(tallies.instancesByState(domain)).as("after a last fold").isEqualTo(counted(domain));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM instance_tallies WHERE domain = ?", Long.class, domain))
                .as("one row per state left with instances, after a fold").isLessThanOrEqualTo(4);
    }

    /** One LRP through most of its life; which steps it takes and how many instances it has vary with {@code seed}. */
    private void lifeOfOneLrp(String domain, String cell, int seed) {
        int instances = 3 + seed % 4;
        String guid = desire(domain, instances);
        Map<ActualLrpKey, String> placing = new HashMap<>();
        for (int i = 0; i < instances; i++) {
            placing.put(ActualLrpKey.of(guid, i), cell);
        }
        actuals.place(UUID.randomUUID(), placing, TEST);
        Map<ActualLrpKey, InstanceOwner> owners = new HashMap<>();
        for (int i = 0; i < instances - 1; i++) {
            owners.put(ActualLrpKey.of(guid, i), InstanceOwner.of(guid + "-" + i, cell));
        }
        actuals.claim(owners, Actor.cell(cell));
        actuals.start(owners.entrySet().stream().map(e -> new StartedInstance(e.getKey(), domain, e.getValue(),
                new NetInfo("10.0.0.2", List.of()))).toList(), Actor.cell(cell));
        ActualLrpKey first = ActualLrpKey.of(guid, 0);
        actuals.crash(first, owners.get(first), "exit 1", Actor.cell(cell));
        if (seed % 3 == 0) {
            ActualLrpKey second = ActualLrpKey.of(guid, 1);
            actuals.removeAll(Map.of(second, owners.get(second)), "stopped", Actor.cell(cell));
        }
        if (seed % 2 == 0) {
            desired.remove(guid, TEST);
        }
    }

    /** The rows themselves, counted: what the kept counts must equal. */
    private Map<ActualLrpState, Long> counted(String domain) {
        Map<ActualLrpState, Long> counts = Tallies.noInstances();
        jdbc.queryForList("SELECT state, count(*) AS n FROM actual_lrps WHERE CAST(? AS varchar) IS NULL OR domain = ? "
                + "GROUP BY state", domain, domain).forEach(row -> counts.put(ActualLrpState.valueOf((String) row.get(
                        "state")), ((Number) row.get("n")).longValue()));
        return counts;
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
