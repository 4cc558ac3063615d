package io.drover.receptor.cells;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellState;
import io.drover.model.cell.DrainOrder;
import io.drover.model.cell.Resources;
import io.drover.model.read.DrainProgress;
import java.time.Instant;
import java.util.List;

/**
 * A cell as the API shows it (SPEC 5.4, 18): its registration, presence, state ({@code ACTIVE}, {@code EVACUATING},
 * {@code DRAINED}), capacity, what is still available, how it isolates what it runs ({@code CGROUPS_V1},
 * {@code CGROUPS_V2}, {@code SAMPLING}, {@code SIMULATED} or {@code UNKNOWN}), and while an operator's drain stands,
 * the drain: when it started, its deadline, who asked, and what the cell still carries.
 */
record CellResponse(String cellId, String zone, String address, CellState state, ResourcesJson capacity,
        ResourcesJson available, List<String> rootfsProviders, List<String> placementTags,
        List<String> optionalPlacementTags, CellIsolation isolation, Instant heartbeatAt, Instant expiresAt,
        DrainJson drain) {

    /** @param left what the cell still carries; read for a cell with a drain order only (null otherwise) */
    static CellResponse of(Cell cell, Resources used, DrainProgress.Left left) {
        Resources capacity = cell.capacity();
        return new CellResponse(cell.cellId(), cell.zone(), cell.registration().address(), cell.state(),
                ResourcesJson.of(capacity), ResourcesJson.of(capacity.minus(used)),
                cell.registration().rootfsProviders(), cell.registration().placementTags(),
                cell.registration().optionalPlacementTags(), cell.registration().isolation(), cell.heartbeatAt(),
                cell.expiresAt(), DrainJson.of(cell.drain(), left));
    }

    /** {@code {memory_mb, disk_mb, containers}}. */
    record ResourcesJson(int memoryMb, int diskMb, int containers) {

        static ResourcesJson of(Resources r) {
            return new ResourcesJson(r.memoryMb(), r.diskMb(), r.containers());
        }
    }

    /** {@code {started_at, deadline_at, requested_by, instances_left, tasks_left}}; null when no drain stands. */
    record DrainJson(Instant startedAt, Instant deadlineAt, String requestedBy, int instancesLeft, int tasksLeft) {

        static DrainJson of(DrainOrder order, DrainProgress.Left left) {
            if (order == null) {
                return null;
            }
            DrainProgress.Left l = left == null ? DrainProgress.Left.NOTHING : left;
            return new DrainJson(order.requestedAt(), order.deadlineAt(), order.requestedBy(), l.instances(),
                    l.tasks());
        }
    }
}
