package io.drover.auctioneer.allocation;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.read.CellAllocation;
import java.util.HashMap;
import java.util.Map;

/**
 * What one cell carries in the view: what the last read of the database said ({@link CellAllocation}), plus the
 * placements confirmed since. Keeps the {@link CellLoad} it last handed out until the cell changes (a placement, or a
 * new registration), and the counts per process_guid it handed out until an instance is placed: a round over a
 * thousand cells copies only the counts of the cells the last rounds placed instances on. A cell nothing was placed on
 * since the read hands out the read's own (immutable) map, and one that took only tasks since its last hand-out the
 * map it handed out then, uncopied.
 */
final class CellTally {

    private Map<String, Integer> instancesByProcessGuid;
    /** Whether {@link #instancesByProcessGuid} is this tally's own copy yet (it is the read's until a placement). */
    private boolean ownMap;
    /** An immutable copy of {@link #instancesByProcessGuid} as last handed out; null once an instance changed it. */
    private Map<String, Integer> handedOut;
    private int memoryMb;
    private int diskMb;
    private int containers;
    private int starting;
    private CellLoad load;
    private CellRegistration loadFor;

    CellTally(CellAllocation read) {
        this.instancesByProcessGuid = read.instancesByProcessGuid();
        this.handedOut = instancesByProcessGuid;
        this.memoryMb = read.used().memoryMb();
        this.diskMb = read.used().diskMb();
        this.containers = read.used().containers();
        this.starting = read.starting();
    }

    /** What {@code totals} says the cell carries in all, with this tally's counts per process_guid. */
    CellTally withTotals(CellAllocation totals) {
        if (handedOut == null) {
            handedOut = Map.copyOf(instancesByProcessGuid);
        }
        return new CellTally(new CellAllocation(totals.used(), totals.starting(), handedOut));
    }

    static CellTally empty() {
        return new CellTally(new CellAllocation(Resources.NONE, 0, Map.of()));
    }

    /**
     * A placement the lifecycle confirmed: one more container starting, and one more instance of {@code processGuid}
     * unless it is null (a task, which counts in no LRP's spread).
     */
    void placed(String processGuid, int memory, int disk) {
        if (processGuid != null) {
            if (!ownMap) {
                instancesByProcessGuid = new HashMap<>(instancesByProcessGuid);
                ownMap = true;
            }
            instancesByProcessGuid.merge(processGuid, 1, Integer::sum);
            handedOut = null;
        }
        memoryMb += memory;
        diskMb += disk;
        containers++;
        starting++;
        load = null;
    }

    CellLoad load(Cell cell) {
        if (load == null || !cell.registration().equals(loadFor)) {
            if (handedOut == null) {
                handedOut = Map.copyOf(instancesByProcessGuid);
            }
            load = CellLoad.of(cell, allocated(), handedOut, starting);
            loadFor = cell.registration();
        }
        return load;
    }

    Resources allocated() {
        return new Resources(memoryMb, diskMb, containers);
    }

    int starting() {
        return starting;
    }

    int instancesOf(String processGuid) {
        return instancesByProcessGuid.getOrDefault(processGuid, 0);
    }
}
