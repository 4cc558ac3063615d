package io.drover.receptor.cells;

import io.drover.model.cell.CellNotFoundException;
import io.drover.model.cell.CellPresence;
import io.drover.model.read.LiveCells;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/cells}: every registered cell with its state, its capacity, what is still available on it and how it
 * isolates what it runs; {@code GET /v1/cells/{cell_id}}: one of them (SPEC 18).
 */
@RestController
@Tag(name = "cells", description = "The machines that run instances")
class CellController {

    private final LiveCells cells;
    private final CellPresence presence;
    private final CellViews views;

    CellController(LiveCells cells, CellPresence presence, CellViews views) {
        this.cells = cells;
        this.presence = presence;
        this.views = views;
    }

    @GetMapping("/v1/cells")
    @Operation(summary = "List cells", description = "available = capacity minus what the cell carries: instances "
            + "claimed or running on it, placements in flight to it, the old instances a drain or a deployment keeps "
            + "serving on it until their replacements run elsewhere, and tasks running or placed on it. isolation: "
            + "CGROUPS_V1 or CGROUPS_V2 (the kernel enforces each instance's memory_mb, cpu_weight and max_pids), "
            + "SAMPLING (the rep watches /proc and kills a tree over its limits), SIMULATED, or UNKNOWN. state: ACTIVE "
            + "(takes work), EVACUATING (draining: takes nothing new), DRAINED (an operator's drain is done: it "
            + "heartbeats and takes no work until undrained); drain: the operator's drain while it stands, else null. "
            + "Only cells whose presence has not expired are listed (Diego's cells), evacuating and drained ones "
            + "included.")
    List<CellResponse> list() {
        return views.of(cells.cells());
    }

    @GetMapping("/v1/cells/{cellId}")
    @Operation(summary = "Get one cell", description = "As listed, with drain {started_at, deadline_at, requested_by, "
            + "instances_left, tasks_left} while an operator's drain stands. A cell whose presence expired is shown "
            + "until its row is collected (10 min later; never while a drain stands). 404 CellNotFound.")
    CellResponse get(@PathVariable String cellId) {
        return views.of(presence.find(cellId).orElseThrow(() -> new CellNotFoundException(cellId)));
    }
}
