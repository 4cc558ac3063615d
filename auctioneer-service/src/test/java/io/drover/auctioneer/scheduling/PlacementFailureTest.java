package io.drover.auctioneer.scheduling;

import static io.drover.auctioneer.scheduling.Fixtures.cell;
import static io.drover.auctioneer.scheduling.Fixtures.key;
import static io.drover.auctioneer.scheduling.Fixtures.loaded;
import static io.drover.auctioneer.scheduling.Fixtures.tagged;
import static io.drover.auctioneer.scheduling.Fixtures.tags;
import static io.drover.auctioneer.scheduling.Fixtures.work;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every placement error of SPEC 7, word for word, and the placement tag rule. */
class PlacementFailureTest {

    private static final Resources CAPACITY = new Resources(1024, 2048, 4);

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("no live cells", List.of(), work("w", 0, 128), "no cells available"),
                Arguments.of("memory", List.of(cell("c", "z1", CAPACITY)), work("w", 0, 2000, 100),
                        "insufficient resources: memory"),
                Arguments.of("disk", List.of(cell("c", "z1", CAPACITY)), work("w", 0, 100, 4000),
                        "insufficient resources: disk"),
                Arguments.of("containers", List.of(loaded("c", "z1", CAPACITY, new Resources(0, 0, 4))),
                        work("w", 0, 100, 100), "insufficient resources: containers"),
                Arguments.of("memory and disk", List.of(cell("c", "z1", CAPACITY)), work("w", 0, 2000, 4000),
                        "insufficient resources: memory, disk"),
                Arguments.of("everything", List.of(loaded("c", "z1", CAPACITY, new Resources(1024, 2048, 4))),
                        work("w", 0, 1, 1), "insufficient resources: memory, disk, containers"),
                Arguments.of("each resource somewhere, never together",
                        List.of(loaded("lots-of-memory", "z1", CAPACITY, new Resources(0, 2000, 0)),
                                loaded("lots-of-disk", "z2", CAPACITY, new Resources(1000, 0, 0))),
                        work("w", 0, 500, 500), "insufficient resources: memory, disk"),
                Arguments.of("no cell lists the rootfs", List.of(cell("c", "z1")),
                        new Work(key("w", 0), 1, 1, "docker:///busybox", Set.of()),
                        "found no compatible cell for required rootfs"),
                Arguments.of("rootfs matches on the full string", List.of(cell("c", "z1")),
                        new Work(key("w", 0), 1, 1, "preloaded:other", Set.of()),
                        "found no compatible cell for required rootfs"),
                Arguments.of("placement tags", List.of(cell("c", "z1")), tagged("w", 0, "b", "a"),
                        "found no compatible cell with placement tags \"a\" and \"b\""),
                Arguments.of("rootfs is checked before tags", List.of(cell("c", "z1")),
                        new Work(key("w", 0), 1, 1, "docker:///x", Set.of("a")),
                        "found no compatible cell for required rootfs"),
                Arguments.of("tags are checked before resources", List.of(cell("c", "z1", CAPACITY)),
                        new Work(key("w", 0), 99_999, 1, Fixtures.ROOTFS, Set.of("gpu")),
                        "found no compatible cell with placement tag \"gpu\""));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
            "''       | found no compatible cell with no placement tags",
            "a        | found no compatible cell with placement tag \"a\"",
            "b,a      | found no compatible cell with placement tags \"a\" and \"b\"",
            "c,a,b    | found no compatible cell with placement tags \"a\", \"b\" and \"c\"" })
    void placementTagErrorsUseDiegosWording(String tags, String error) {
        Set<String> requested = tags.isEmpty() ? Set.of() : Set.of(tags.split(","));
        assertThat(PlacementErrors.placementTags(requested)).isEqualTo(error);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void failsWithTheSpecError(String name, List<CellLoad> cells, Work work, String error) {
        Schedule s = Scheduler.unlimited().schedule(List.of(work), cells);

        assertThat(s.placements()).isEmpty();
        assertThat(s.failures()).containsExactly(java.util.Map.entry(work.key(), error));
    }

    /** cell.required ⊆ requested ⊆ cell.required ∪ cell.optional. */
    static Stream<Arguments> tagRules() {
        Set<String> required = Set.of("linux");
        Set<String> optional = Set.of("ssd", "gpu");
        return Stream.of(
                Arguments.of(Set.of(), Set.of(), Set.of(), true),
                Arguments.of(Set.of(), Set.of(), Set.of("ssd"), false),
                Arguments.of(Set.of(), optional, Set.of(), true),
                Arguments.of(Set.of(), optional, Set.of("ssd"), true),
                Arguments.of(required, optional, Set.of(), false),
                Arguments.of(required, optional, Set.of("linux"), true),
                Arguments.of(required, optional, Set.of("linux", "ssd", "gpu"), true),
                Arguments.of(required, optional, Set.of("ssd"), false),
                Arguments.of(required, optional, Set.of("linux", "arm"), false),
                Arguments.of(Set.of("linux", "eu"), Set.of(), Set.of("linux"), false),
                Arguments.of(Set.of("linux", "eu"), Set.of(), Set.of("eu", "linux"), true));
    }

    @ParameterizedTest(name = "required={0} optional={1} requested={2} -> {3}")
    @MethodSource("tagRules")
    void placementTagsMustCoverRequiredAndStayWithinRequiredAndOptional(Set<String> required, Set<String> optional,
            Set<String> requested, boolean placed) {
        Work w = tagged("w", 0, requested.toArray(String[]::new));
        Schedule s = Scheduler.unlimited().schedule(List.of(w), List.of(tags("c", required, optional)));

        assertThat(s.placements().containsKey(w.key())).isEqualTo(placed);
        if (!placed) {
            assertThat(s.failures().get(w.key())).startsWith("found no compatible cell with ");
        }
    }

    @org.junit.jupiter.api.Test
    void workIsPlacedOnlyOnCellsThatAcceptItsTags() {
        List<CellLoad> cells = List.of(tags("plain", Set.of(), Set.of()), tags("gpu", Set.of(), Set.of("gpu")));
        ActualLrpKey gpuWork = key("w", 0);
        Schedule s = Scheduler.unlimited().schedule(List.of(tagged("w", 0, "gpu"), tagged("x", 0)), cells);

        assertThat(s.placements()).containsEntry(gpuWork, "gpu");
    }
}
