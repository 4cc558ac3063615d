package io.drover.auctioneer.scheduling;

import static io.drover.auctioneer.scheduling.Fixtures.cell;
import static io.drover.auctioneer.scheduling.Fixtures.holding;
import static io.drover.auctioneer.scheduling.Fixtures.key;
import static io.drover.auctioneer.scheduling.Fixtures.loaded;
import static io.drover.auctioneer.scheduling.Fixtures.starting;
import static io.drover.auctioneer.scheduling.Fixtures.work;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.drover.model.cell.Resources;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SchedulerTest {

    private final Scheduler scheduler = Scheduler.unlimited();

    @Test
    void spreadsThreeInstancesOfOneLrpOverThreeZones() {
        List<CellLoad> cells = List.of(cell("a1", "z1"), cell("a2", "z1"), cell("b1", "z2"), cell("b2", "z2"),
                cell("c1", "z3"), cell("c2", "z3"));
        Schedule s = scheduler.schedule(instances("web", 3, 256), cells);

        assertThat(s.failures()).isEmpty();
        assertThat(zonesOf(s, cells)).containsExactlyInAnyOrder("z1", "z2", "z3");
    }

    @Test
    void zoneBalanceCountsInstancesAlreadyRunning() {
        List<CellLoad> cells = List.of(holding("a1", "z1", "web", 1), cell("a2", "z1"), holding("b1", "z2", "web", 1),
                cell("b2", "z2"), cell("c1", "z3"));
        Schedule s = scheduler.schedule(List.of(work("web", 2, 256)), cells);

        assertThat(s.placements()).containsEntry(key("web", 2), "c1");
    }

    @Test
    void neverPutsTwoInstancesOfOneLrpOnACellWhileAnotherFittingCellHasNone() {
        Resources capacity = new Resources(4096, 10_000, 100);
        List<CellLoad> cells = List.of(cell("a", "z1"), loaded("b", "z1", capacity, new Resources(3000, 9000, 90)),
                loaded("c", "z1", capacity, new Resources(2000, 5000, 50)), cell("d", "z1"));
        Schedule s = scheduler.schedule(instances("web", 4, 512), cells);

        assertThat(new HashSet<>(s.placements().values())).containsExactlyInAnyOrder("a", "b", "c", "d");
    }

    @Test
    void zoneBalanceComesBeforeTheSpreadOverCells() {
        // Zone z2 has one cell: the fourth instance doubles up there rather than leave z2 with fewer instances.
        List<CellLoad> cells = List.of(cell("a1", "z1"), cell("a2", "z1"), cell("a3", "z1"), cell("b1", "z2"));
        Schedule s = scheduler.schedule(instances("web", 4, 256), cells);

        assertThat(zonesOf(s, cells)).containsExactlyInAnyOrder("z1", "z1", "z2", "z2");
        assertThat(s.placements().values()).doesNotContain("a3");
    }

    @Test
    void avoidsACellThatAlreadyHoldsAnInstanceOfTheLrp() {
        List<CellLoad> cells = List.of(holding("busy", "z1", "web", 1),
                loaded("full", "z1", new Resources(4096, 10_000, 100), new Resources(3500, 9000, 90)));
        Schedule s = scheduler.schedule(List.of(work("web", 1, 256)), cells);

        assertThat(s.placements()).containsEntry(key("web", 1), "full");
    }

    @Test
    void fillsTheCellWithTheLowestUsedFractionFirst() {
        Resources capacity = new Resources(4096, 10_000, 100);
        List<CellLoad> cells = List.of(loaded("half", "z1", capacity, new Resources(2048, 5000, 50)),
                loaded("empty", "z1", capacity, Resources.NONE),
                loaded("most", "z1", capacity, new Resources(3072, 7500, 75)));
        Schedule s = scheduler.schedule(List.of(work("a", 0, 128), work("b", 0, 128)), cells);

        // The second placement also pays 0.25 for the first one starting there, and "empty" still wins.
        assertThat(s.placements().values()).containsOnly("empty");
    }

    @Test
    void comparesFractionsNotAbsoluteAmounts() {
        List<CellLoad> cells = List.of(loaded("small", "z1", new Resources(1000, 1000, 10), new Resources(500, 500, 5)),
                loaded("big", "z1", new Resources(10_000, 10_000, 100), new Resources(2000, 2000, 20)));
        Schedule s = scheduler.schedule(List.of(work("a", 0, 100, 100)), cells);

        assertThat(s.placements()).containsEntry(key("a", 0), "big");
    }

    @Test
    void containersStartingOnACellWeighAQuarterEach() {
        Resources capacity = new Resources(4096, 10_000, 100);
        // "busy" is 10 % emptier but has 2 containers starting: 0.5 outweighs 0.1.
        List<CellLoad> cells = List.of(starting("busy", "z1", 2),
                loaded("idle", "z1", capacity, new Resources(410, 1000, 10)));
        Schedule s = scheduler.schedule(List.of(work("a", 0, 128)), cells);

        assertThat(s.placements()).containsEntry(key("a", 0), "idle");
    }

    @Test
    void scoreIsExactlyTheSpecFormula() {
        Fleet fleet = new Fleet(List.of(new CellLoad("c", "z1", new Resources(1000, 2000, 10),
                new Resources(400, 1000, 4), Set.of(Fixtures.ROOTFS), Set.of(), Set.of(), Map.of("w", 2), 3)));
        double expected = (500.0 / 1000 + 1100.0 / 2000 + 5.0 / 10) / 3 + 1000 * 2 + 0.25 * 3;

        assertThat(fleet.score(0, work("w", 5, 100, 100), 2)).isCloseTo(expected, offset(1e-12));
    }

    @Test
    void placingReservesCapacitySoARoundNeverOvercommitsACell() {
        List<CellLoad> cells = List.of(cell("only", "z1", new Resources(1000, 10_000, 100)));
        Schedule s = scheduler.schedule(List.of(work("a", 0, 400), work("b", 0, 400), work("c", 0, 400)), cells);

        assertThat(s.placements()).hasSize(2);
        assertThat(s.failures()).containsOnly(Map.entry(key("c", 0), "insufficient resources: memory"));
    }

    @Test
    void ordersEveryIndexZeroFirstThenLargerMemoryFirst() {
        List<Work> shuffled = List.of(work("a", 1, 4096), work("b", 0, 128), work("c", 2, 512), work("d", 0, 1024),
                work("e", 1, 2048), work("f", 0, 256, 50), work("g", 0, 256, 500));
        List<Work> ordered = new ArrayList<>(shuffled);
        ordered.sort(Scheduler.ORDER);

        assertThat(ordered).extracting(w -> w.key().toString())
                .containsExactly("d.0", "g.0", "f.0", "b.0", "a.1", "e.1", "c.2");
    }

    @Test
    void indexZeroWinsTheLastSlotOverALargerNonZeroIndex() {
        List<CellLoad> cells = List.of(cell("only", "z1", new Resources(8192, 10_000, 2)));
        Schedule s = scheduler.schedule(List.of(work("big", 1, 4096), work("small", 0, 128), work("other", 0, 64)),
                cells);

        assertThat(s.placements()).containsOnlyKeys(key("small", 0), key("other", 0));
        assertThat(s.failures()).containsOnly(Map.entry(key("big", 1), "insufficient resources: containers"));
    }

    @Test
    void largerMemoryIsPlacedFirstSoItIsNotCrowdedOut() {
        List<CellLoad> cells = List.of(cell("only", "z1", new Resources(1000, 10_000, 100)));
        Schedule s = scheduler.schedule(List.of(work("small", 0, 300), work("large", 0, 800)), cells);

        assertThat(s.placements()).containsOnlyKeys(key("large", 0));
    }

    @Test
    void inFlightStartCapFailsWhatIsOverTheLimit() {
        List<CellLoad> cells = List.of(starting("a", "z1", 1), cell("b", "z1"));
        Schedule s = new Scheduler(3).schedule(instances("web", 4, 128), cells);

        assertThat(s.placements()).containsOnlyKeys(key("web", 0), key("web", 1));
        assertThat(s.failures()).containsOnly(
                Map.entry(key("web", 2), "waiting to start instance: reached in-flight start limit"),
                Map.entry(key("web", 3), "waiting to start instance: reached in-flight start limit"));
    }

    @Test
    void noCapMeansUnlimited() {
        List<CellLoad> cells = List.of(starting("a", "z1", 50));
        assertThat(Scheduler.unlimited().schedule(instances("web", 40, 16), cells).failures()).isEmpty();
    }

    @Test
    void sameInputGivesTheSameSchedule() {
        List<CellLoad> cells = IntStream.range(0, 9).mapToObj(i -> cell("c" + i, "z" + i % 3)).toList();
        List<Work> work = instances("web", 20, 128);
        List<Work> reversedWork = new ArrayList<>(work);
        List<CellLoad> reversedCells = new ArrayList<>(cells);
        Collections.reverse(reversedWork);
        Collections.reverse(reversedCells);

        assertThat(scheduler.schedule(work, cells)).isEqualTo(scheduler.schedule(reversedWork, reversedCells));
    }

    private static List<Work> instances(String guid, int count, int memoryMb) {
        return IntStream.range(0, count).mapToObj(i -> work(guid, i, memoryMb)).toList();
    }

    private static List<String> zonesOf(Schedule s, List<CellLoad> cells) {
        Map<String, String> zoneOfCell = new HashMap<>();
        cells.forEach(c -> zoneOfCell.put(c.cellId(), c.zone()));
        return s.placements().values().stream().map(zoneOfCell::get).toList();
    }
}
