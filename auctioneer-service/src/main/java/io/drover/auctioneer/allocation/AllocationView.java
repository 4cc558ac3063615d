package io.drover.auctioneer.allocation;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each cell carries as the auction leader sees it: memory, disk and containers allocated, instances per
 * process_guid and containers starting. Built from the database's aggregate ({@link #of}) and then grown by every
 * placement the lifecycle confirmed ({@link #placed}). It learns of nothing that frees capacity (an instance removed,
 * crashed or moved, a starting instance reaching RUNNING) until it is rebuilt, so between two reconciles it
 * over-counts: a cell looks fuller and its placements look longer in flight than they are. (The rare exception, a rep
 * recreating the record of a container it runs, is caught by the rep's own capacity check and the next read.)
 *
 * <p>Not thread-safe: the round thread owns it.
 */
public final class AllocationView {

    private final Map<String, CellAllocation> byCell = new HashMap<>();

    private AllocationView() {
    }

    public static AllocationView empty() {
        return new AllocationView();
    }

    /** The view of the aggregate's rows (one per cell and process_guid). */
    public static AllocationView of(Collection<AllocationRow> rows) {
        AllocationView view = new AllocationView();
        rows.forEach(r -> view.cell(r.cellId()).add(r.processGuid(), r.instances(), r.starting(), r.memoryMb(),
                r.diskMb()));
        return view;
    }

    /** A placement the lifecycle committed: the instance takes its resources and is starting on that cell. */
    public void placed(String cellId, Work work) {
        cell(cellId).add(work.processGuid(), 1, 1, work.memoryMb(), work.diskMb());
    }

    /** The scheduler's input: these cells (in this order) with what the view says they carry. */
    public List<CellLoad> loads(List<Cell> cells) {
        List<CellLoad> loads = new ArrayList<>(cells.size());
        cells.forEach(c -> loads.add(cell(c.cellId()).load(c)));
        return loads;
    }

    public Resources allocated(String cellId) {
        CellAllocation cell = byCell.get(cellId);
        return cell == null ? Resources.NONE : cell.allocated();
    }

    public int starting(String cellId) {
        CellAllocation cell = byCell.get(cellId);
        return cell == null ? 0 : cell.starting();
    }

    public int instances(String cellId, String processGuid) {
        CellAllocation cell = byCell.get(cellId);
        return cell == null ? 0 : cell.instancesOf(processGuid);
    }

    private CellAllocation cell(String cellId) {
        return byCell.computeIfAbsent(cellId, id -> new CellAllocation());
    }
}
