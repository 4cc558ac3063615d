package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.LiveCells;
import io.drover.model.read.PlaceableInstances;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a round decides on, through the model's read model: the requested instances that still need a placement,
 * and the schedulable cells (what they carry is the leader's allocation view).
 */
class AuctionSnapshots {

    /** How long a read of the schedulable cells serves the rounds after it. */
    static final Duration CELLS_MAX_AGE = Duration.ofSeconds(1);

    private final PlaceableInstances placeable;
    private final LiveCells cells;
    private final Clock clock;
    private volatile Read lastRead;

    AuctionSnapshots(PlaceableInstances placeable, LiveCells cells, Clock clock) {
        this.placeable = placeable;
        this.cells = cells;
        this.clock = clock;
    }

    /** Of {@code keys}, the instances still UNCLAIMED, desired and not placed, as the scheduler's work. */
    List<Work> work(List<ActualLrpKey> keys) {
        List<Work> work = new ArrayList<>(keys.size());
        placeable.of(keys).forEach(p -> work.add(new Work(p.key(), p.memoryMb(), p.diskMb(), p.rootfs(),
                p.placementTags())));
        return work;
    }

    /**
     * Live, ACTIVE cells: evacuating ones take nothing new. One read of the {@code cells} table (a few ms and a thousand
     * rows parsed for 1,000 cells) serves the rounds of the next {@link #CELLS_MAX_AGE} unless {@code fresh}: rounds of
     * a burst of single submissions (tasks, say) come many a second, and read the table once a second instead of once
     * a round. Each round still judges each cell's presence by its expiry as of that round (the injected clock), so a
     * cell that dies is skipped at once. A round whose schedule fails anything asks again with {@code fresh}
     * ({@link RoundDecision}), so a cell that joined within the second is never missing from a round that needed it; a
     * cell that began to drain within the second may still be offered work, which its rep turns away.
     */
    List<Cell> schedulableCells(boolean fresh) {
        Read read = lastRead;
        long now = System.nanoTime();
        if (fresh || read == null || now - read.nanos() > CELLS_MAX_AGE.toNanos()) {
            read = new Read(cells.schedulable(), now);
            lastRead = read;
            return read.cells();
        }
        Instant at = clock.instant();
        return read.cells().stream().filter(c -> c.isSchedulable(at)).toList();
    }

    /** Whether the last {@link #schedulableCells} answer came from an earlier read. */
    boolean cellsRead(long sinceNanos) {
        Read read = lastRead;
        return read != null && read.nanos() >= sinceNanos;
    }

    /** The schedulable cells as read at {@code nanos} ({@link System#nanoTime}). */
    private record Read(List<Cell> cells, long nanos) {
    }
}
