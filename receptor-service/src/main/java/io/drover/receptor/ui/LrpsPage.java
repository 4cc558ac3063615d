package io.drover.receptor.ui;

import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.Tallies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code /ui/lrps}: desired LRPs, {@link #PER_PAGE} at a time in process_guid order (keyset pages: "next" starts after
 * the last one shown), filtered by domain and by a process_guid prefix, each with its instances by state and a
 * placement error when one of them has one; above them the instance counts of the whole filter.
 */
@Controller
class LrpsPage {

    static final int PER_PAGE = 50;

    private final DesiredLrpRows desired;
    private final Tallies tallies;

    LrpsPage(DesiredLrpRows desired, Tallies tallies) {
        this.desired = desired;
        this.tallies = tallies;
    }

    @GetMapping("/ui/lrps")
    String lrps(@RequestParam(required = false) String domain, @RequestParam(required = false) String search,
            @RequestParam(required = false) String after, @RequestParam(required = false) String fragment,
            Model model) {
        String inDomain = UiParams.filter("domain", domain);
        String prefix = UiParams.filter("search", search);
        List<DesiredLrpRow> rows = page(inDomain, prefix, UiParams.filter("after", after));
        boolean more = rows.size() > PER_PAGE;
        rows = more ? rows.subList(0, PER_PAGE) : rows;
        Map<String, Tallies.ProcessTally> counts = tallies.byProcess(rows.stream().map(DesiredLrpRow::processGuid)
                .toList());
        List<LrpLine> lines = new ArrayList<>();
        for (DesiredLrpRow row : rows) {
            lines.add(LrpLine.of(row, counts.get(row.processGuid())));
        }
        model.addAttribute("page", "lrps");
        model.addAttribute("domain", inDomain);
        model.addAttribute("search", prefix);
        model.addAttribute("after", after);
        model.addAttribute("lines", lines);
        model.addAttribute("next", more ? rows.get(rows.size() - 1).processGuid() : null);
        model.addAttribute("total", desired.count(inDomain));
        model.addAttribute("instances", tallies.instancesByState(inDomain));
        model.addAttribute("states", ActualLrpState.values());
        return Fragments.view("ui/lrps", fragment);
    }

    /**
     * One more than a page (to know whether there is a next one). With a prefix, the keyset starts at the prefix itself
     * (every guid that begins with it sorts after it) and stops at the first guid that does not begin with it.
     */
    private List<DesiredLrpRow> page(String domain, String prefix, String after) {
        if (prefix == null) {
            return desired.page(domain, after, PER_PAGE + 1);
        }
        List<DesiredLrpRow> matching = new ArrayList<>();
        if (after == null || after.compareTo(prefix) < 0) {
            desired.find(prefix).filter(row -> domain == null || domain.equals(row.domain())).ifPresent(matching::add);
            after = prefix;
        }
        for (DesiredLrpRow row : desired.page(domain, after, PER_PAGE + 1)) {
            if (!row.processGuid().startsWith(prefix) || matching.size() > PER_PAGE) {
                break;
            }
            matching.add(row);
        }
        return matching;
    }
}
