package io.drover.receptor.cells;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.Resources;
import io.drover.model.read.CellLoads;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v1/cells}: every registered cell with its capacity and what is still available on it. */
@RestController
@Tag(name = "cells", description = "The machines that run instances")
class CellController {

    private final CellPresence presence;
    private final CellLoads loads;

    CellController(CellPresence presence, CellLoads loads) {
        this.presence = presence;
        this.loads = loads;
    }

    @GetMapping("/v1/cells")
    @Operation(summary = "List cells", description = "available = capacity minus instances claimed or running on "
            + "the cell and placements in flight to it.")
    List<CellResponse> list() {
        Map<String, Resources> used = loads.used();
        return presence.all().stream()
                .map(cell -> CellResponse.of(cell, used.getOrDefault(cell.cellId(), Resources.NONE)))
                .toList();
    }
}
