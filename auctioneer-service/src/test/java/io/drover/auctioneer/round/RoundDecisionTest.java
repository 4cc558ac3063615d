package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.allocation.AllocationView;
import io.drover.auctioneer.allocation.Allocations.Current;
import io.drover.auctioneer.allocation.Allocations.Source;
import io.drover.auctioneer.round.RoundDecision.Decided;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The false-shortage rule: a view that over-counts is checked against the database (once) before a round fails
 * anything for want of capacity, and only then.
 */
class RoundDecisionTest {

    private static final Resources ONE_CONTAINER = new Resources(1024, 1024, 1);
    private static final List<Cell> CELLS = List.of(cell("a", ONE_CONTAINER));
    private static final Map<String, CellAllocation> FULL = Map.of("a", new CellAllocation(new Resources(64, 64, 1),
            0, Map.of("old", 1)));
    private static final Map<String, CellAllocation> STARTING = Map.of("a", new CellAllocation(Resources.NONE, 1,
            Map.of()));
    private static final Map<String, CellAllocation> EMPTY = Map.of();
    private static final Scheduler UNLIMITED = Scheduler.unlimited();
    private static final Scheduler ONE_START_AT_A_TIME = new Scheduler(1);

    static Stream<Arguments> rounds() {
        Map<ActualLrpKey, String> placedOnA = Map.of(key("new", 0), "a");
        Map<ActualLrpKey, String> none = Map.of();
        return Stream.of(
                Arguments.of("fits on the view: no read", UNLIMITED, Source.INCREMENTAL, EMPTY, EMPTY, work(64),
                        placedOnA, none, 0),
                Arguments.of("full on the view, freed in the database: read once, then placed", UNLIMITED,
                        Source.INCREMENTAL, FULL, EMPTY, work(64), placedOnA, none, 1),
                Arguments.of("full in the database too: read once, then failed", UNLIMITED, Source.INCREMENTAL, FULL,
                        FULL, work(64), none, Map.of(key("new", 0), "insufficient resources: containers"), 1),
                Arguments.of("a view loaded in this round is trusted", UNLIMITED, Source.LOADED, FULL, EMPTY,
                        work(64), none, Map.of(key("new", 0), "insufficient resources: containers"), 0),
                Arguments.of("a view reconciled for the interval in this round is trusted", UNLIMITED, Source.INTERVAL,
                        FULL, EMPTY, work(64), none, Map.of(key("new", 0), "insufficient resources: containers"), 0),
                Arguments.of("a missing rootfs does not depend on what cells carry: no read", UNLIMITED,
                        Source.INCREMENTAL, FULL, EMPTY,
                        new Work(key("new", 0), 64, 64, "docker:///other", Set.of()), none,
                        Map.of(key("new", 0), "found no compatible cell for required rootfs"), 0),
                Arguments.of("the in-flight cap reached on a stale starting count: read once, then placed",
                        ONE_START_AT_A_TIME, Source.INCREMENTAL, STARTING, EMPTY, work(64), placedOnA, none, 1),
                Arguments.of("the in-flight cap really reached: read once, then failed", ONE_START_AT_A_TIME,
                        Source.INCREMENTAL, STARTING, STARTING, work(64), none,
                        Map.of(key("new", 0), "waiting to start instance: reached in-flight start limit"), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rounds")
    void schedulesOnTheViewAndReadsTheDatabaseBeforeFailingForCapacity(String name, Scheduler scheduler,
            Source source, Map<String, CellAllocation> view, Map<String, CellAllocation> database, Work work,
            Map<ActualLrpKey, String> placements, Map<ActualLrpKey, String> failures, int reads) {
        AtomicInteger read = new AtomicInteger();

        Decided decided = RoundDecision.decide(scheduler, List.of(work), CELLS,
                new Current(AllocationView.of(view), source), () -> {
                    read.incrementAndGet();
                    return AllocationView.of(database);
                });

        assertThat(decided.schedule().placements()).isEqualTo(placements);
        assertThat(decided.schedule().failures()).isEqualTo(failures);
        assertThat(read).as("reads of the database").hasValue(reads);
        assertThat(decided.viewSource()).isEqualTo(reads == 1 ? Source.SHORTAGE : source);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rounds")
    void theConfirmedPlacementsGrowTheViewTheRoundWasDecidedOn(String name, Scheduler scheduler, Source source,
            Map<String, CellAllocation> view, Map<String, CellAllocation> database, Work work) {
        AllocationView stale = AllocationView.of(view);
        AllocationView reconciled = AllocationView.of(database);

        Decided decided = RoundDecision.decide(scheduler, List.of(work), CELLS, new Current(stale, source),
                () -> reconciled);

        assertThat(decided.view()).isSameAs(decided.viewSource() == Source.SHORTAGE ? reconciled : stale);
        assertThat(decided.loads()).singleElement().satisfies(
                load -> assertThat(load.allocated()).isEqualTo(decided.view().allocated("a")));
    }

    private static Work work(int memoryMb) {
        return new Work(key("new", 0), memoryMb, 64, "preloaded:host", Set.of());
    }

    private static ActualLrpKey key(String guid, int index) {
        return ActualLrpKey.of(guid, index);
    }

    private static Cell cell(String id, Resources capacity) {
        return new Cell(new CellRegistration(id, "z1", id + ":1800", capacity, List.of("preloaded:host"), List.of(),
                List.of()), CellState.ACTIVE, null, Instant.EPOCH, Instant.MAX, 0);
    }
}
