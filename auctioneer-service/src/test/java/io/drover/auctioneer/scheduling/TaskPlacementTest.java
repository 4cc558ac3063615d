package io.drover.auctioneer.scheduling;

import static io.drover.auctioneer.scheduling.Fixtures.cell;
import static io.drover.auctioneer.scheduling.Fixtures.holding;
import static io.drover.auctioneer.scheduling.Fixtures.key;
import static io.drover.auctioneer.scheduling.Fixtures.loaded;
import static io.drover.auctioneer.scheduling.Fixtures.starting;
import static io.drover.auctioneer.scheduling.Fixtures.tags;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task has no siblings, so a round of tasks builds no spread (issue 37: building them was most of a task round on a
 * fleet of 100,000 instances); each task still goes where it went when it was placed as an instance of an LRP of its
 * own (capacity, score, zones, placement tags, the in-flight cap and the errors unchanged).
 */
class TaskPlacementTest {

    private static final Resources CAPACITY = new Resources(4096, 10_000, 100);

    static Stream<Arguments> rounds() {
        return Stream.of(
                Arguments.of("the least loaded cell, whichever zone it is in",
                        List.of(loaded("a", "z1", CAPACITY, new Resources(2048, 5000, 50)), cell("b", "z2"),
                                loaded("c", "z3", CAPACITY, new Resources(1024, 2500, 25))),
                        List.of(task("t1", 128)), 0, Map.of(key("t1", 0), "b")),
                Arguments.of("tasks of a round are not spread over zones: the emptiest cells take them",
                        List.of(cell("a1", "z1"), cell("a2", "z1"),
                                loaded("b1", "z2", CAPACITY, new Resources(2048, 5000, 50))),
                        List.of(task("t1", 128), task("t2", 128)), 0,
                        Map.of(key("t1", 0), "a1", key("t2", 0), "a2")),
                Arguments.of("a cell's LRP instances weigh only by what they use",
                        List.of(holding("busy", "z1", "web", 10),
                                loaded("other", "z1", CAPACITY, new Resources(2048, 5000, 50))),
                        List.of(task("t1", 128)), 0, Map.of(key("t1", 0), "busy")),
                Arguments.of("a container starting weighs a quarter, as for instances",
                        List.of(starting("busy", "z1", 2), loaded("idle", "z1", CAPACITY, new Resources(410, 1000, 10))),
                        List.of(task("t1", 128)), 0, Map.of(key("t1", 0), "idle")),
                Arguments.of("placement tags: only a cell that accepts them",
                        List.of(tags("plain", Set.of(), Set.of()), tags("gpu", Set.of(), Set.of("gpu"))),
                        List.of(Work.task("t1", 128, 100, Fixtures.ROOTFS, Set.of("gpu"))), 0,
                        Map.of(key("t1", 0), "gpu")),
                Arguments.of("larger memory first, and a full cell fails the rest with its error",
                        List.of(cell("only", "z1", new Resources(1000, 10_000, 100))),
                        List.of(task("small", 300), task("large", 800)), 0, Map.of(key("large", 0), "only")),
                Arguments.of("the in-flight cap counts tasks as it counts instances",
                        List.of(starting("a", "z1", 1), cell("b", "z1")),
                        List.of(task("t1", 128), task("t2", 128), task("t3", 128)), 2,
                        Map.of(key("t1", 0), "b")),
                Arguments.of("a hundred tasks over cells holding a hundred LRPs each", fleetOfLrps(30),
                        hundredTasks(), 0, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rounds")
    void aTaskRoundConsultsNoSpreadAndPlacesAsBefore(String name, List<CellLoad> cells, List<Work> tasks,
            int maxInFlight, Map<ActualLrpKey, String> expected) {
        Scheduler scheduler = new Scheduler(maxInFlight);
        Fleet fleet = new Fleet(cells);

        Schedule schedule = scheduler.schedule(tasks, fleet);

        assertThat(fleet.spreadsBuilt()).as("spreads built").isZero();
        assertThat(schedule).as("as when each task was an LRP's only instance")
                .isEqualTo(scheduler.schedule(asInstances(tasks), cells));
        if (expected != null) {
            assertThat(schedule.placements()).isEqualTo(expected);
        }
    }

    private static Work task(String guid, int memoryMb) {
        return Work.task(guid, memoryMb, 100, Fixtures.ROOTFS, Set.of());
    }

    /** The same work as it was placed before tasks had a path of their own: instances, spread from their siblings. */
    private static List<Work> asInstances(List<Work> tasks) {
        return tasks.stream().map(t -> new Work(t.key(), t.memoryMb(), t.diskMb(), t.rootfs(), t.placementTags()))
                .toList();
    }

    /** {@code count} cells in three zones, each holding one instance of a hundred LRPs and some of its capacity used. */
    private static List<CellLoad> fleetOfLrps(int count) {
        List<CellLoad> cells = new ArrayList<>();
        for (int c = 0; c < count; c++) {
            Map<String, Integer> held = new HashMap<>();
            for (int lrp = 0; lrp < 100; lrp++) {
                held.put("lrp-" + (c * 7 + lrp) % 500, 1);
            }
            cells.add(new CellLoad("cell-" + c, "z" + c % 3, CAPACITY, new Resources(64 * (c % 11), 100, 100 - c % 13),
                    Set.of(Fixtures.ROOTFS), Set.of(), Set.of(), held, c % 4));
        }
        return cells;
    }

    private static List<Work> hundredTasks() {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (int t = 0; t < 100; t++) {
            sizes.put("task-" + t, 16 << (t % 4));
        }
        return sizes.entrySet().stream().map(e -> task(e.getKey(), e.getValue())).toList();
    }
}
