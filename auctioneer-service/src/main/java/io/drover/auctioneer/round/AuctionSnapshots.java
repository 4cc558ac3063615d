package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.LiveCells;
import io.drover.model.read.PlaceableInstances;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a round decides on, through the model's read model: the requested instances that still need a placement,
 * and the schedulable cells (what they carry is the leader's allocation view).
 */
class AuctionSnapshots {

    private final PlaceableInstances placeable;
    private final LiveCells cells;

    AuctionSnapshots(PlaceableInstances placeable, LiveCells cells) {
        this.placeable = placeable;
        this.cells = cells;
    }

    /** Of {@code keys}, the instances still UNCLAIMED, desired and not placed, as the scheduler's work. */
    List<Work> work(List<ActualLrpKey> keys) {
        List<Work> work = new ArrayList<>(keys.size());
        placeable.of(keys).forEach(p -> work.add(new Work(p.key(), p.memoryMb(), p.diskMb(), p.rootfs(),
                p.placementTags())));
        return work;
    }

    /**
     * Live, ACTIVE cells: evacuating ones take nothing new. One read of the {@code cells} table (a few ms for 1,000
     * cells), so not cached: a cell that joins or goes is seen by the next round.
     */
    List<Cell> schedulableCells() {
        return cells.schedulable();
    }
}
