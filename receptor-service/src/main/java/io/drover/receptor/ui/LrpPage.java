package io.drover.receptor.ui;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.ActualLrpRow;
import io.drover.model.read.ActualLrpRows;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.Tallies;
import io.drover.model.route.CfRoutes;
import io.drover.receptor.deployment.DeploymentProgress;
import io.drover.receptor.web.ProcessGuids;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /ui/lrps/{process_guid}}: one desired LRP's definition (its router hostnames and their port first among its
 * routes), its instances by state and {@link #PER_PAGE} of its instances from a given index (an LRP may have 10,000),
 * and for an autoscaled LRP its policy, the autoscaler's last decision and a chart of its last 30 minutes
 * ({@link AutoscalingPanel}; the page then also looks again every 5 s, as the autoscaler's samples are no events).
 * Scaling and restarting are buttons whose script calls the
 * REST API itself (PUT the desired LRP, DELETE an instance): the dashboard has no write path of its own.
 */
@Controller
class LrpPage {

    static final int PER_PAGE = 100;
    /** The latest deployments the page shows (the API lists 100). */
    static final int DEPLOYMENTS = 5;

    private final DesiredLrpRows desired;
    private final ActualLrpRows actuals;
    private final Tallies tallies;
    private final DeploymentProgress deployments;
    private final AutoscalingPanel autoscaling;
    private final Clock clock;

    LrpPage(DesiredLrpRows desired, ActualLrpRows actuals, Tallies tallies, DeploymentProgress deployments,
            AutoscalingPanel autoscaling, Clock clock) {
        this.desired = desired;
        this.autoscaling = autoscaling;
        this.deployments = deployments;
        this.actuals = actuals;
        this.tallies = tallies;
        this.clock = clock;
    }

    @GetMapping("/ui/lrps/{processGuid}")
    String lrp(@PathVariable String processGuid, @RequestParam(required = false) String from,
            @RequestParam(required = false) String fragment, Model model) {
        int start = UiParams.index("from", from);
        Optional<DesiredLrpRow> found = ProcessGuids.isValid(processGuid) ? desired.find(processGuid)
                : Optional.empty();
        DesiredLrpRow row = found.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND,
                "no desired LRP with that process_guid"));
        List<InstanceLine> instances = instances(processGuid, start);
        Tallies.ProcessTally tally = tallies.byProcess(List.of(processGuid)).get(processGuid);
        Map<ActualLrpState, Long> byState = tally == null ? Tallies.noInstances() : tally.byState();
        Integer next = instances.size() > PER_PAGE ? start + PER_PAGE : null;
        if (next != null) {
            instances.remove(instances.size() - 1);
        }
        model.addAttribute("page", "lrps");
        model.addAttribute("lrp", row);
        model.addAttribute("routes", CfRoutes.parse(row.routesJson()));
        model.addAttribute("instances", instances);
        model.addAttribute("byState", byState);
        model.addAttribute("placementError", tally == null ? null : tally.placementError());
        model.addAttribute("from", start);
        model.addAttribute("next", next);
        model.addAttribute("previous", start > 0 ? Math.max(0, start - PER_PAGE) : null);
        model.addAttribute("states", ActualLrpState.values());
        Instant now = clock.instant();
        model.addAttribute("deployments", deployments.latest(processGuid, DEPLOYMENTS).orElse(List.of()).stream()
                .map(p -> DeploymentLine.of(p, now)).toList());
        model.addAttribute("autoscaling", autoscaling.of(row).orElse(null));
        return Fragments.view("ui/lrp", fragment);
    }

    /**
     * Instances from index {@code start}, one more than a page, in index order: index 0 by its key (there is no keyset
     * position before it), the rest as a keyset page of the read model. Evacuating twins (SPEC 8.5) are not listed,
     * except that index 0 shows the record that serves it.
     */
    private List<InstanceLine> instances(String processGuid, int start) {
        List<ActualLrpRow> rows = new ArrayList<>();
        if (start == 0) {
            actuals.find(ActualLrpKey.of(processGuid, 0)).ifPresent(rows::add);
        }
        ActualLrpKey after = ActualLrpKey.of(processGuid, Math.max(0, start - 1));
        for (ActualLrpRow r : actuals.page(null, after, PER_PAGE + 1)) {
            if (!r.processGuid().equals(processGuid) || rows.size() > PER_PAGE) {
                break;
            }
            rows.add(r);
        }
        Instant now = clock.instant();
        return new ArrayList<>(rows.stream().map(r -> InstanceLine.of(r, now)).toList());
    }
}
