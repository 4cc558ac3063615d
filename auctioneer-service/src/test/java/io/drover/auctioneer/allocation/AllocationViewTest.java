package io.drover.auctioneer.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.CellState;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.CellAllocation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The view's arithmetic: what the database says each cell carries, each confirmed placement added on top. */
class AllocationViewTest {

    static final Resources CAPACITY = new Resources(4096, 20_000, 50);

    record Expect(String cell, Resources allocated, int starting, Map<String, Integer> instances) {
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nothing read, no placements: every cell empty", Map.of(), List.of(),
                        List.of(new Expect("a", Resources.NONE, 0, Map.of()))),
                Arguments.of("a cell carries what the read says",
                        Map.of("a", read(new Resources(640, 300, 3), 1, Map.of("web", 2, "api", 1))), List.of(),
                        List.of(new Expect("a", new Resources(640, 300, 3), 1, Map.of("web", 2, "api", 1)),
                                new Expect("b", Resources.NONE, 0, Map.of()))),
                Arguments.of("twins and tasks take resources and containers, but no LRP spreads from them",
                        Map.of("a", read(new Resources(900, 300, 4), 2, Map.of("web", 1))),
                        List.of(place("a", "web", 100, 100)),
                        List.of(new Expect("a", new Resources(1000, 400, 5), 3, Map.of("web", 2)))),
                Arguments.of("a task takes its resources and a starting container, and counts in no LRP's spread",
                        Map.of("a", read(new Resources(512, 200, 2), 0, Map.of("web", 2))),
                        List.of(new Placed("a", Work.task("t1", 64, 32, "preloaded:host", Set.of())),
                                new Placed("b", Work.task("t2", 16, 16, "preloaded:host", Set.of()))),
                        List.of(new Expect("a", new Resources(576, 232, 3), 1, Map.of("web", 2)),
                                new Expect("b", new Resources(16, 16, 1), 1, Map.of()))),
                Arguments.of("a placement adds its resources, a container and a starting instance",
                        Map.of("a", read(new Resources(512, 200, 2), 0, Map.of("web", 2))),
                        List.of(place("a", "web", 256, 100)),
                        List.of(new Expect("a", new Resources(768, 300, 3), 1, Map.of("web", 3)))),
                Arguments.of("placements add up per cell and per LRP",
                        Map.of(), List.of(place("a", "web", 256, 100), place("a", "api", 64, 10),
                                place("b", "web", 256, 100)),
                        List.of(new Expect("a", new Resources(320, 110, 2), 2, Map.of("web", 1, "api", 1)),
                                new Expect("b", new Resources(256, 100, 1), 1, Map.of("web", 1)))),
                Arguments.of("a placement on a cell the read did not know (it joined since)",
                        Map.of("a", read(new Resources(64, 64, 1), 1, Map.of("web", 1))),
                        List.of(place("new", "web", 64, 64)),
                        List.of(new Expect("new", new Resources(64, 64, 1), 1, Map.of("web", 1)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void loadsAreTheReadPlusThePlacements(String name, Map<String, CellAllocation> read, List<Placed> placements,
            List<Expect> expected) {
        AllocationView view = AllocationView.of(read);
        placements.forEach(p -> view.placed(p.cell(), p.work()));

        for (Expect e : expected) {
            CellLoad load = view.loads(List.of(cell(e.cell()))).get(0);
            assertThat(load.allocated()).as("allocated on %s", e.cell()).isEqualTo(e.allocated());
            assertThat(load.starting()).as("starting on %s", e.cell()).isEqualTo(e.starting());
            assertThat(load.instancesByProcessGuid()).as("instances on %s", e.cell()).isEqualTo(e.instances());
            assertThat(load.capacity()).isEqualTo(CAPACITY);
        }
    }

    @Test
    void loadsFollowTheCellsGivenInTheirOrderAndLeaveOutTheOthers() {
        AllocationView view = AllocationView.of(Map.of("gone", read(new Resources(640, 640, 5), 0, Map.of("web", 5)),
                "b", read(new Resources(1, 1, 1), 0, Map.of("web", 1))));

        assertThat(view.loads(List.of(cell("b"), cell("a"))).stream().map(CellLoad::cellId)).containsExactly("b", "a");
    }

    @Test
    void aLoadHandedOutBeforeAPlacementIsNotChangedByItButTheNextOneIs() {
        AllocationView view = AllocationView.empty();
        CellLoad before = view.loads(List.of(cell("a"))).get(0);

        view.placed("a", work("web", 128));

        assertThat(before.allocated()).isEqualTo(Resources.NONE);
        assertThat(view.loads(List.of(cell("a"))).get(0).allocated()).isEqualTo(new Resources(128, 100, 1));
    }

    @Test
    void aTaskPlacedAfterAnInstanceHandsOutTheCountsTheInstanceLeftUncopied() {
        AllocationView view = AllocationView.of(Map.of("a", read(new Resources(64, 64, 1), 0, Map.of("web", 1))));
        view.placed("a", work("api", 128));
        CellLoad afterInstance = view.loads(List.of(cell("a"))).get(0);

        view.placed("a", Work.task("t1", 16, 16, "preloaded:host", Set.of()));
        CellLoad afterTask = view.loads(List.of(cell("a"))).get(0);
        view.placed("a", work("api", 128));
        CellLoad afterAnother = view.loads(List.of(cell("a"))).get(0);

        assertThat(afterTask.allocated()).isEqualTo(new Resources(208, 180, 3));
        assertThat(afterTask.instancesByProcessGuid()).isSameAs(afterInstance.instancesByProcessGuid());
        assertThat(afterAnother.instancesByProcessGuid()).isEqualTo(Map.of("web", 1, "api", 2));
        assertThat(afterInstance.instancesByProcessGuid()).isEqualTo(Map.of("web", 1, "api", 1));
    }

    @Test
    void theTotalsReplaceWhatCellsCarryAndKeepTheCountsOfTheCellsStillCarryingSomething() {
        AllocationView view = AllocationView.of(Map.of("a", read(new Resources(64, 64, 1), 0, Map.of("web", 1)),
                "b", read(new Resources(64, 64, 1), 1, Map.of("web", 1))));
        view.placed("a", work("api", 128));

        AllocationView fresh = view.withTotals(Map.of("a", read(new Resources(500, 500, 5), 2, Map.of()),
                "c", read(new Resources(10, 10, 1), 1, Map.of())));

        assertThat(fresh.allocated("a")).isEqualTo(new Resources(500, 500, 5));
        assertThat(fresh.starting("a")).isEqualTo(2);
        assertThat(List.of(fresh.instances("a", "web"), fresh.instances("a", "api"))).containsExactly(1, 1);
        assertThat(fresh.allocated("b")).as("carries nothing now").isEqualTo(Resources.NONE);
        assertThat(fresh.instances("b", "web")).isZero();
        assertThat(fresh.allocated("c")).isEqualTo(new Resources(10, 10, 1));
        assertThat(view.allocated("a")).as("the view it came from is as it was").isEqualTo(new Resources(192, 164, 2));
    }

    @Test
    void aNewRegistrationOfTheCellIsSeenAtOnce() {
        AllocationView view = AllocationView.empty();
        view.loads(List.of(cell("a")));
        Cell bigger = cell("a", new Resources(8192, 20_000, 50));

        assertThat(view.loads(List.of(bigger)).get(0).capacity()).isEqualTo(new Resources(8192, 20_000, 50));
    }

    @Test
    void aPlacementDoesNotChangeTheReadItStartedFrom() {
        CellAllocation read = read(new Resources(64, 64, 1), 0, Map.of("web", 1));
        AllocationView view = AllocationView.of(Map.of("a", read));

        view.placed("a", work("web", 128));

        assertThat(read.instancesByProcessGuid()).isEqualTo(Map.of("web", 1));
        assertThat(view.instances("a", "web")).isEqualTo(2);
    }

    @Test
    void aCellFullOfWhatNoLrpSpreadsFromTakesNoMoreWorkAndTheSchedulerSaysWhy() {
        AllocationView view = AllocationView.of(Map.of("a", read(new Resources(4000, 0, 1), 0, Map.of())));

        Schedule schedule = Scheduler.unlimited().schedule(List.of(new Work(ActualLrpKey.of("t9", 0), 512, 0,
                "preloaded:host", Set.of())), view.loads(List.of(cell("a"))));

        assertThat(schedule.failures()).containsEntry(ActualLrpKey.of("t9", 0), "insufficient resources: memory");
    }

    record Placed(String cell, Work work) {
    }

    /** What the database says one cell carries. */
    static CellAllocation read(Resources used, int starting, Map<String, Integer> instances) {
        return new CellAllocation(used, starting, instances);
    }

    static Placed place(String cell, String guid, int memoryMb, int diskMb) {
        return new Placed(cell, new Work(ActualLrpKey.of(guid, 0), memoryMb, diskMb, "preloaded:host", Set.of()));
    }

    static Work work(String guid, int memoryMb) {
        return new Work(ActualLrpKey.of(guid, 0), memoryMb, 100, "preloaded:host", Set.of());
    }

    static Cell cell(String id) {
        return cell(id, CAPACITY);
    }

    static Cell cell(String id, Resources capacity) {
        return new Cell(new CellRegistration(id, "z1", id + ":1800", capacity, List.of("preloaded:host"), List.of(),
                List.of()), CellState.ACTIVE, null, Instant.EPOCH, Instant.MAX, 0);
    }
}
