package io.drover.auctioneer.allocation;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.CellState;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The view's arithmetic: the aggregate's rows summed per cell, each confirmed placement added on top. */
class AllocationViewTest {

    static final Resources CAPACITY = new Resources(4096, 20_000, 50);

    record Expect(String cell, Resources allocated, int starting, Map<String, Integer> instances) {
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no rows, no placements: every cell empty", List.of(), List.of(),
                        List.of(new Expect("a", Resources.NONE, 0, Map.of()))),
                Arguments.of("rows of one cell are summed over its LRPs",
                        List.of(row("a", "web", 2, 1, 512, 200), row("a", "api", 1, 0, 128, 100)), List.of(),
                        List.of(new Expect("a", new Resources(640, 300, 3), 1, Map.of("web", 2, "api", 1)),
                                new Expect("b", Resources.NONE, 0, Map.of()))),
                Arguments.of("a placement adds its resources, a container and a starting instance",
                        List.of(row("a", "web", 2, 0, 512, 200)), List.of(place("a", "web", 256, 100)),
                        List.of(new Expect("a", new Resources(768, 300, 3), 1, Map.of("web", 3)))),
                Arguments.of("placements add up per cell and per LRP",
                        List.of(), List.of(place("a", "web", 256, 100), place("a", "api", 64, 10),
                                place("b", "web", 256, 100)),
                        List.of(new Expect("a", new Resources(320, 110, 2), 2, Map.of("web", 1, "api", 1)),
                                new Expect("b", new Resources(256, 100, 1), 1, Map.of("web", 1)))),
                Arguments.of("a placement on a cell the aggregate did not know (it joined since)",
                        List.of(row("a", "web", 1, 1, 64, 64)), List.of(place("new", "web", 64, 64)),
                        List.of(new Expect("new", new Resources(64, 64, 1), 1, Map.of("web", 1)))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void loadsAreTheRowsPlusThePlacements(String name, List<AllocationRow> rows, List<Placed> placements,
            List<Expect> expected) {
        AllocationView view = AllocationView.of(rows);
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
        AllocationView view = AllocationView.of(List.of(row("gone", "web", 5, 0, 640, 640), row("b", "web", 1, 0, 1, 1)));

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
    void aNewRegistrationOfTheCellIsSeenAtOnce() {
        AllocationView view = AllocationView.empty();
        view.loads(List.of(cell("a")));
        Cell bigger = cell("a", new Resources(8192, 20_000, 50));

        assertThat(view.loads(List.of(bigger)).get(0).capacity()).isEqualTo(new Resources(8192, 20_000, 50));
    }

    record Placed(String cell, Work work) {
    }

    static AllocationRow row(String cell, String guid, int instances, int starting, int memoryMb, int diskMb) {
        return new AllocationRow(cell, guid, instances, starting, memoryMb, diskMb);
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
                List.of()), CellState.ACTIVE, Instant.EPOCH, Instant.MAX, 0);
    }
}
