package io.drover.receptor.ui;

import io.drover.model.leader.LeaderPasses;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.LiveCells;
import io.drover.model.read.Tallies;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** {@code /ui}: the cluster in a few numbers, each one aggregate query, whatever the number of instances. */
@Controller
class OverviewPage {

    static final Duration EVENT_WINDOW = Duration.ofMinutes(1);
    /** The converger's loop in {@link LeaderPasses}. */
    static final String CONVERGENCE = "convergence";

    private final Tallies tallies;
    private final LiveCells cells;
    private final DesiredLrpRows desired;
    private final LeaderPasses passes;
    private final Clock clock;

    OverviewPage(Tallies tallies, LiveCells cells, DesiredLrpRows desired, LeaderPasses passes, Clock clock) {
        this.tallies = tallies;
        this.passes = passes;
        this.cells = cells;
        this.desired = desired;
        this.clock = clock;
    }

    @GetMapping({ "/ui", "/ui/" })
    String overview(@RequestParam(required = false) String fragment, Model model) {
        Map<ActualLrpState, Long> instances = tallies.instancesByState(null);
        LiveCells.ByState byState = cells.byState();
        model.addAttribute("page", "overview");
        model.addAttribute("cells", byState.live());
        model.addAttribute("evacuatingCells", byState.evacuating());
        model.addAttribute("drainedCells", byState.drained());
        model.addAttribute("lrps", desired.count(null));
        model.addAttribute("instances", instances);
        model.addAttribute("instanceTotal", instances.values().stream().mapToLong(Long::longValue).sum());
        model.addAttribute("eventsPerMinute", tallies.eventsSince(clock.instant().minus(EVENT_WINDOW)));
        model.addAttribute("tasks", tallies.tasksByState());
        passes.last(CONVERGENCE).ifPresent(pass -> model.addAttribute("convergence", new ConvergenceLine(
                "%.0f ms".formatted(pass.durationMs()), Display.ago(pass.finishedAt(), clock.instant()),
                pass.actions())));
        return Fragments.view("ui/overview", fragment);
    }

    /** The converger's last pass as the page shows it: how long it took, how long ago, what it did. */
    record ConvergenceLine(String took, String ago, int actions) {
    }
}
