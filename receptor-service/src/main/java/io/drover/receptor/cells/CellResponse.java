package io.drover.receptor.cells;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellState;
import io.drover.model.cell.Resources;
import java.time.Instant;
import java.util.List;

/**
 * A cell as the API shows it (SPEC 5.4): its registration, presence, capacity, what is still available, and how it
 * isolates what it runs ({@code CGROUPS_V1}, {@code CGROUPS_V2}, {@code SAMPLING}, {@code SIMULATED} or
 * {@code UNKNOWN}).
 */
record CellResponse(String cellId, String zone, String address, CellState state, ResourcesJson capacity,
        ResourcesJson available, List<String> rootfsProviders, List<String> placementTags,
        List<String> optionalPlacementTags, CellIsolation isolation, Instant heartbeatAt, Instant expiresAt) {

    static CellResponse of(Cell cell, Resources used) {
        Resources capacity = cell.capacity();
        return new CellResponse(cell.cellId(), cell.zone(), cell.registration().address(), cell.state(),
                ResourcesJson.of(capacity), ResourcesJson.of(capacity.minus(used)),
                cell.registration().rootfsProviders(), cell.registration().placementTags(),
                cell.registration().optionalPlacementTags(), cell.registration().isolation(), cell.heartbeatAt(),
                cell.expiresAt());
    }

    /** {@code {memory_mb, disk_mb, containers}}. */
    record ResourcesJson(int memoryMb, int diskMb, int containers) {

        static ResourcesJson of(Resources r) {
            return new ResourcesJson(r.memoryMb(), r.diskMb(), r.containers());
        }
    }
}
