package io.drover.receptor.cells;

import io.drover.model.cell.Resources;
import io.drover.model.read.CellLoads;
import io.drover.model.read.LiveCells;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/cells}: every registered cell with its capacity, what is still available on it and how it isolates
 * what it runs.
 */
@RestController
@Tag(name = "cells", description = "The machines that run instances")
class CellController {

    private final LiveCells cells;
    private final CellLoads loads;

    CellController(LiveCells cells, CellLoads loads) {
        this.cells = cells;
        this.loads = loads;
    }

    @GetMapping("/v1/cells")
    @Operation(summary = "List cells", description = "available = capacity minus what the cell carries: instances "
            + "claimed or running on it, placements in flight to it, the old instances a drain or a deployment keeps "
            + "serving on it until their replacements run elsewhere, and tasks running or placed on it. isolation: "
            + "CGROUPS_V1 or CGROUPS_V2 (the kernel enforces each instance's memory_mb, cpu_weight and max_pids), "
            + "SAMPLING (the rep watches /proc and kills a tree over its limits), SIMULATED, or UNKNOWN. Only cells whose presence has not expired are listed (Diego's "
            + "cells), evacuating ones included.")
    List<CellResponse> list() {
        Map<String, Resources> used = loads.used();
        return cells.cells().stream()
                .map(cell -> CellResponse.of(cell, used.getOrDefault(cell.cellId(), Resources.NONE)))
                .toList();
    }
}
