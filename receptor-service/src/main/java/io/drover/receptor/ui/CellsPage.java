package io.drover.receptor.ui;

import io.drover.model.cell.Cell;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.CellLoads;
import io.drover.model.read.LiveCells;
import io.drover.model.read.Tallies;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code /ui/cells}: the topology, one card per live cell with its use of memory, disk and containers and its
 * instances coloured by state. A card draws at most {@link #SAMPLE} instances and the page at most {@link #PER_PAGE}
 * cards, so a cluster of 100,000 instances draws about a thousand marks, never 100,000; only the cells shown are
 * read and counted.
 */
@Controller
class CellsPage {

    static final int SAMPLE = 48;
    static final int PER_PAGE = 24;

    private final LiveCells cells;
    private final CellLoads loads;
    private final Tallies tallies;
    private final Clock clock;

    CellsPage(LiveCells cells, CellLoads loads, Tallies tallies, Clock clock) {
        this.cells = cells;
        this.loads = loads;
        this.tallies = tallies;
        this.clock = clock;
    }

    @GetMapping("/ui/cells")
    String cells(@RequestParam(required = false) String from, @RequestParam(required = false) String fragment,
            Model model) {
        int start = UiParams.index("from", from);
        long total = cells.byState().live();
        List<Cell> shown = cells.page(start, PER_PAGE);
        List<String> shownIds = shown.stream().map(Cell::cellId).toList();
        Map<String, Resources> used = loads.used(shownIds);
        Map<String, Tallies.CellTally> carried = tallies.byCell(shownIds, SAMPLE);
        Instant now = clock.instant();
        List<CellCard> cards = new ArrayList<>();
        for (Cell cell : shown) {
            cards.add(CellCard.of(cell, used.getOrDefault(cell.cellId(), Resources.NONE),
                    carried.getOrDefault(cell.cellId(), new Tallies.CellTally(Map.of(), List.of())), now));
        }
        model.addAttribute("page", "cells");
        model.addAttribute("cards", cards);
        model.addAttribute("total", total);
        model.addAttribute("from", start);
        model.addAttribute("next", start + PER_PAGE < total ? start + PER_PAGE : null);
        model.addAttribute("previous", start > 0 ? Math.max(0, start - PER_PAGE) : null);
        model.addAttribute("states", ActualLrpState.values());
        return Fragments.view("ui/cells", fragment);
    }
}
