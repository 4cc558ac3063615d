package io.drover.auctioneer.round;

import io.drover.auctioneer.allocation.AllocationView;
import io.drover.auctioneer.allocation.Allocations;
import io.drover.auctioneer.allocation.Allocations.Source;
import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.PlacementErrors;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides a round on the leader's allocation view. Between reconciles the view over-counts (it learns of
 * freed capacity only from the database), so a schedule that would fail instances for want of capacity (insufficient
 * resources, or the in-flight cap) is not trusted: the view is reconciled and the whole round scheduled again on it,
 * at most once per round. A view already read from the database in this round is trusted as it is.
 */
class RoundDecision {

    /** The failure reasons that depend on what cells carry; rootfs, tags and "no cells" do not. */
    private static final Set<String> CAPACITY_REASONS = Set.of("insufficient_resources", "in_flight_limit");

    private final AuctionSnapshots snapshots;
    private final Allocations allocations;
    private final Scheduler scheduler;

    RoundDecision(AuctionSnapshots snapshots, Allocations allocations, Scheduler scheduler) {
        this.snapshots = snapshots;
        this.allocations = allocations;
        this.scheduler = scheduler;
    }

    /**
     * Decides on the schedulable cells as last read (at most a second ago, see {@link AuctionSnapshots}); a schedule
     * that fails anything on an earlier read is decided again on a fresh one, so a cell that joined meanwhile is never
     * missing where it was needed.
     */
    Decided decide(List<Work> work) {
        long started = System.nanoTime();
        // a round of tasks spreads nothing: its view needs the cells' totals fresh, not the LRPs' counts
        boolean spreads = work.stream().anyMatch(Work::spread);
        Decided decided = decide(scheduler, work, snapshots.schedulableCells(false), allocations.forRound(spreads),
                () -> allocations.reconcile(Source.SHORTAGE, spreads));
        if (decided.schedule().failures().isEmpty() || snapshots.cellsRead(started)) {
            return decided;
        }
        return decide(scheduler, work, snapshots.schedulableCells(true), allocations.forRound(spreads),
                () -> allocations.reconcile(Source.SHORTAGE, spreads));
    }

    /** The pure rule: schedule on the view; on a capacity failure of a view not read in this round, reconcile once. */
    static Decided decide(Scheduler scheduler, List<Work> work, List<Cell> cells, Allocations.Current current,
            Supplier<AllocationView> reconcile) {
        List<CellLoad> loads = current.view().loads(cells);
        Schedule schedule = scheduler.schedule(work, loads);
        if (current.source().isFresh() || !failsForCapacity(schedule)) {
            return new Decided(schedule, current.view(), loads, current.source());
        }
        AllocationView reconciled = reconcile.get();
        List<CellLoad> reconciledLoads = reconciled.loads(cells);
        return new Decided(scheduler.schedule(work, reconciledLoads), reconciled, reconciledLoads, Source.SHORTAGE);
    }

    static boolean failsForCapacity(Schedule schedule) {
        return schedule.failures().values().stream().anyMatch(e -> CAPACITY_REASONS.contains(PlacementErrors.reason(e)));
    }

    /** A round's decision, the view it was made on (which the confirmed placements then grow) and its source. */
    record Decided(Schedule schedule, AllocationView view, List<CellLoad> loads, Source viewSource) {
    }
}
