package io.drover.auctioneer.allocation;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import io.drover.model.read.CellAllocation;
import io.drover.model.read.CellLoads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each cell carries as the auction leader sees it: memory, disk and containers allocated, instances per
 * process_guid and containers starting. Built from the model's one definition of it ({@link CellLoads}: instances,
 * twins and tasks; {@link #of}) and then grown by every placement the lifecycle confirmed ({@link #placed}). It learns
 * of nothing that frees capacity (an instance removed, crashed or moved, a twin removed, a task completed, a starting
 * instance reaching RUNNING) until it is rebuilt, so between two reconciles it over-counts: a cell looks fuller and its placements look longer in flight than they are. (The rare exception, a rep
 * recreating the record of a container it runs, is caught by the rep's own capacity check and the next read.)
 *
 * <p>Not thread-safe: the round thread owns it.
 */
public final class AllocationView {

    private final Map<String, CellTally> byCell;

    private AllocationView(Map<String, CellTally> byCell) {
        this.byCell = byCell;
    }

    public static AllocationView empty() {
        return new AllocationView(new HashMap<>());
    }

    /** The view of what the database says each cell carries ({@link CellLoads#allocations()}). */
    public static AllocationView of(Map<String, CellAllocation> read) {
        Map<String, CellTally> byCell = new HashMap<>(read.size() * 2);
        read.forEach((cell, allocation) -> byCell.put(cell, new CellTally(allocation)));
        return new AllocationView(byCell);
    }

    /**
     * A view of what the database says each cell carries in all ({@link CellLoads#totals()}: resources and containers
     * starting), with this view's counts per process_guid (as last read in full, plus the placements since): what a
     * round that spreads nothing needs fresh, without reading an LRP's spread. A cell the database says carries nothing
     * holds no instance either.
     */
    public AllocationView withTotals(Map<String, CellAllocation> totals) {
        Map<String, CellTally> fresh = new HashMap<>(totals.size() * 2);
        totals.forEach((cell, allocation) -> {
            CellTally kept = byCell.get(cell);
            fresh.put(cell, kept == null ? new CellTally(allocation) : kept.withTotals(allocation));
        });
        return new AllocationView(fresh);
    }

    /**
     * A placement the lifecycle committed: the work takes its resources and is starting on that cell; an LRP's instance
     * also counts in its LRP's spread (a task has none: see {@link Work#spread}).
     */
    public void placed(String cellId, Work work) {
        cell(cellId).placed(work.spread() ? work.processGuid() : null, work.memoryMb(), work.diskMb());
    }

    /** The scheduler's input: these cells (in this order) with what the view says they carry. */
    public List<CellLoad> loads(List<Cell> cells) {
        List<CellLoad> loads = new ArrayList<>(cells.size());
        cells.forEach(c -> loads.add(cell(c.cellId()).load(c)));
        return loads;
    }

    public Resources allocated(String cellId) {
        CellTally cell = byCell.get(cellId);
        return cell == null ? Resources.NONE : cell.allocated();
    }

    public int starting(String cellId) {
        CellTally cell = byCell.get(cellId);
        return cell == null ? 0 : cell.starting();
    }

    public int instances(String cellId, String processGuid) {
        CellTally cell = byCell.get(cellId);
        return cell == null ? 0 : cell.instancesOf(processGuid);
    }

    private CellTally cell(String cellId) {
        return byCell.computeIfAbsent(cellId, id -> CellTally.empty());
    }
}
