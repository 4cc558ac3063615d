package io.drover.receptor.cells;

import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import io.drover.model.read.CellLoads;
import io.drover.model.read.DrainProgress;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** Cells as the API shows them: with what each still has available, and a draining one with what it still carries. */
@Component
class CellViews {

    private final CellLoads loads;
    private final DrainProgress progress;

    CellViews(CellLoads loads, DrainProgress progress) {
        this.loads = loads;
        this.progress = progress;
    }

    List<CellResponse> of(List<Cell> cells) {
        Map<String, Resources> used = loads.used(cells.stream().map(Cell::cellId).toList());
        Map<String, DrainProgress.Left> left = progress.of(cells.stream().filter(c -> c.drain() != null)
                .map(Cell::cellId).toList());
        return cells.stream().map(cell -> CellResponse.of(cell, used.getOrDefault(cell.cellId(), Resources.NONE),
                left.get(cell.cellId()))).toList();
    }

    CellResponse of(Cell cell) {
        return of(List.of(cell)).get(0);
    }
}
