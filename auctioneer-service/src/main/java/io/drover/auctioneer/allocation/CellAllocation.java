package io.drover.auctioneer.allocation;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import java.util.HashMap;
import java.util.Map;

/**
 * What one cell carries. Keeps the {@link CellLoad} it last handed out until the cell changes (a placement, or a new
 * registration), so a round over a thousand cells copies only the maps of the cells the last rounds placed on.
 */
final class CellAllocation {

    private final Map<String, Integer> instancesByProcessGuid = new HashMap<>();
    private int memoryMb;
    private int diskMb;
    private int containers;
    private int starting;
    private CellLoad load;
    private CellRegistration loadFor;

    void add(String processGuid, int instances, int startingInstances, int memory, int disk) {
        instancesByProcessGuid.merge(processGuid, instances, Integer::sum);
        memoryMb += memory;
        diskMb += disk;
        containers += instances;
        starting += startingInstances;
        load = null;
    }

    CellLoad load(Cell cell) {
        if (load == null || !cell.registration().equals(loadFor)) {
            load = CellLoad.of(cell, allocated(), instancesByProcessGuid, starting);
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
