package io.drover.receptor.ui;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.receptor.ReceptorTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

/** The dashboard's pages against the real receptor and PostgreSQL: what each shows, its pages and its refusals. */
@ReceptorTest
class DashboardIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    AutoscalerRecords records;
    @Autowired
    CellPresence presence;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    io.drover.model.leader.LeaderPasses passes;
    @Autowired
    org.springframework.jdbc.core.JdbcTemplate jdbc;

    @Test
    void everyPageAndItsScriptNeedTheApiCredentials() throws Exception {
        for (String path : List.of("/ui", "/ui/cells", "/ui/lrps", "/ui/lrps/web", "/ui/tasks", "/ui/events",
                "/ui/static/dashboard.js")) {
            mvc.perform(get(path)).andExpect(status().isUnauthorized())
                    .andExpect(header().string("WWW-Authenticate", "Basic realm=\"drover\""));
        }
        mvc.perform(authed(get("/ui/static/dashboard.js"))).andExpect(status().isOk())
                .andExpect(content().string(containsString("new EventSource")));
    }

    @Test
    void theLrpsPageFiltersByDomainAndShowsPlacementErrors() throws Exception {
        String domain = guid("dom");
        String placed = guid("placed");
        String stuck = guid("stuck");
        desire(placed, domain, 2);
        desire(stuck, domain, 1);
        actuals.failPlacement(Map.of(ActualLrpKey.of(stuck, 0), "insufficient resources: memory"),
                Actor.service("auctioneer"));

        String page = page("/ui/lrps?domain=" + domain);
        assertThat(page).contains("data-guid=\"" + placed + "\"", "data-guid=\"" + stuck + "\"")
                .contains("<span class=\"placement-error\">insufficient resources: memory</span>")
                .contains("<span id=\"lrp-total\">2</span>");
        assertThat(count(page, "data-state=\"UNCLAIMED\"><span>UNCLAIMED</span>\\s*<strong>3</strong>")).isEqualTo(1);
        assertThat(page("/ui/lrps?domain=" + guid("other"))).contains("No desired LRPs match.");
        assertThat(page("/ui/lrps?search=" + stuck)).contains("data-guid=\"" + stuck + "\"")
                .doesNotContain("data-guid=\"" + placed + "\"");
    }

    @Test
    void theLrpsPageIsKeysetPaged() throws Exception {
        String domain = guid("paged");
        for (int i = 0; i < LrpsPage.PER_PAGE + 3; i++) {
            desire(String.format("pg-%s-%03d", domain, i), domain, 0);
        }
        String first = page("/ui/lrps?domain=" + domain);
        assertThat(count(first, "<tr data-guid=")).isEqualTo(LrpsPage.PER_PAGE);
        String next = String.format("pg-%s-%03d", domain, LrpsPage.PER_PAGE - 1);
        assertThat(first).contains("after=" + next);
        String second = page("/ui/lrps?domain=" + domain + "&after=" + next);
        assertThat(count(second, "<tr data-guid=")).isEqualTo(3);
        assertThat(second).doesNotContain("Next page");
    }

    @Test
    void theLrpPageShowsItsInstancesAPageAtATimeWithTheirCellAndCrash() throws Exception {
        String cell = cell();
        String lrp = guid("big");
        desire(lrp, "apps", LrpPage.PER_PAGE + 20);
        ActualLrpKey zero = ActualLrpKey.of(lrp, 0);
        actuals.place(UUID.randomUUID(), Map.of(zero, cell), Actor.service("auctioneer"));
        actuals.claim(zero, InstanceOwner.of("ig-0", cell), Actor.cell(cell));
        actuals.crash(zero, InstanceOwner.of("ig-0", cell), "exited with status 3", Actor.cell(cell));

        String first = page("/ui/lrps/" + lrp);
        assertThat(count(first, "<tr data-index=")).isEqualTo(LrpPage.PER_PAGE);
        assertThat(first).contains("<span class=\"error\">exited with status 3</span>")
                .contains("data-restart=\"0\"").contains("id=\"scale-form\"").contains("id=\"deployments\"")
                .contains("from=" + LrpPage.PER_PAGE);
        String second = page("/ui/lrps/" + lrp + "?from=" + LrpPage.PER_PAGE);
        assertThat(count(second, "<tr data-index=")).isEqualTo(20);
        assertThat(second).contains("data-index=\"" + LrpPage.PER_PAGE + "\"").doesNotContain("data-index=\"0\"");
    }

    /** SPEC 16: the router's hostnames and the port they reach, linked. */
    @Test
    void theLrpPageShowsTheRoutersHostnamesAndTheirPort() throws Exception {
        String lrp = guid("routed");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(lrp, "apps", 1).replace(
                "\"routes\": {\"http\": [\"web.example.com\"]}", "\"routes\": {\"cf-router\": [{\"hostnames\": "
                        + "[\"web.example.com\", \"www.example.com\"], \"port\": 8080}]}")))
                .andExpect(status().isCreated());
        assertThat(page("/ui/lrps/" + lrp)).contains("<a href=\"http://web.example.com/\">web.example.com</a>")
                .contains("<a href=\"http://www.example.com/\">www.example.com</a>").contains("→ port <span>8080</span>");
        String unrouted = guid("unrouted");
        desire(unrouted, "apps", 1);
        assertThat(page("/ui/lrps/" + unrouted)).contains("none through the router");
    }

    /** A deployment shows with its versions and progress, and each instance with the version it runs (#17). */
    @Test
    void theLrpPageShowsDeploymentsAndTheVersionEachInstanceRuns() throws Exception {
        String lrp = guid("rolled");
        desire(lrp, "apps", 2);
        assertThat(page("/ui/lrps/" + lrp)).contains("No deployments").contains("<td class=\"version\">v1</td>");
        mvc.perform(json(post("/v1/desired_lrps/" + lrp + "/deployments"),
                "{\"env\": [{\"name\": \"VERSION\", \"value\": \"v2\"}], \"min_healthy_time\": 1}"))
                .andExpect(status().isCreated());
        String rolled = page("/ui/lrps/" + lrp + "?fragment=live");
        assertThat(rolled).contains("id=\"deployment-list\"").contains("v1 → v2").contains(" by test-user")
                .containsPattern("data-state=\"(RUNNING|SUCCESSFUL)\"").contains("of 2");
    }

    /** SPEC 17: the policy, the last decision and a chart of the samples, looked at again every 5 s. */
    @Test
    void anAutoscaledLrpsPageShowsItsPolicyItsLastDecisionAndAChart() throws Exception {
        String lrp = guid("scaled");
        desire(lrp, "apps", 2);
        String plain = page("/ui/lrps/" + lrp);
        assertThat(plain).doesNotContain("id=\"autoscaling\"").doesNotContain("data-poll");
        mvc.perform(json(put("/v1/desired_lrps/" + lrp), "{\"autoscaling\": {\"max_instances\": 4, "
                + "\"target_cpu_percent\": 60}}")).andExpect(status().isNoContent());
        assertThat(page("/ui/lrps/" + lrp)).contains("data-poll=\"5000\"").contains("Not evaluated yet.")
                .contains("No samples yet");

        Instant now = Instant.now();
        for (int tick = 3; tick >= 1; tick--) {
            Instant at = now.minusSeconds(15L * tick);
            records.write(List.of(new AutoscalerRecords.Evaluation(lrp, new AutoscalingStatus(at, 90.0 + tick,
                    null, 2, 3, "scaling up", at, 2, 3, "autoscaled from 2 to 3: cpu 91.0% of target 60% over 2 "
                    + "instances (scaling up)"), List.of(), 2 + (tick == 1 ? 1 : 0))), at);
        }
        String live = page("/ui/lrps/" + lrp + "?fragment=live");
        assertThat(live).contains("id=\"autoscaling\"")
                .contains("1–4 instances at cpu 60% per instance; up after 0 s, down after 300 s")
                .containsPattern("Wants 3 \\(scaling up\\), looked \\d+s ago; mean cpu 91.0% over 2 instances.")
                .contains("Last scaled 2 → 3").contains("<svg id=\"usage-chart\"")
                .contains("Now: cpu 91.0%, memory no figures, 3 instances (1 to 4 allowed).")
                .contains("class=\"target cpu\"").doesNotContain("class=\"target memory\"");
        assertThat(count(live, "<polyline class=\"line cpu\"")).isOne();
        assertThat(count(live, "<polyline class=\"line instances\"")).isOne();
    }

    @Test
    void aLiveFragmentIsTheChangingPartAlone() throws Exception {
        String lrp = guid("frag");
        desire(lrp, "apps", 1);
        String fragment = page("/ui/lrps/" + lrp + "?fragment=live");
        assertThat(fragment).startsWith("<section id=\"live\">").contains("data-index=\"0\"")
                .doesNotContain("<html", "scale-form");
    }

    @Test
    void theCellsPageDrawsEachCellWithItsUseAndInstances() throws Exception {
        String cell = cell();
        String lrp = guid("topo");
        desire(lrp, "apps", 2);
        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(lrp, 0), cell, ActualLrpKey.of(lrp, 1), cell),
                Actor.service("auctioneer"));
        actuals.claim(ActualLrpKey.of(lrp, 1), InstanceOwner.of("ig-1", cell), Actor.cell(cell));

        // the page of cards that holds this cell: other tests leave live cells too, and a page shows 24 by cell id
        long before = jdbc.queryForObject("SELECT count(*) FROM cells WHERE expires_at > now() AND cell_id < ?",
                Long.class, cell);
        mvc.perform(authed(get("/ui/cells?from=" + before))).andExpect(status().isOk())
                .andExpect(content().string(containsString("data-cell=\"" + cell + "\"")))
                .andExpect(content().string(containsString("memory: 256 of 1,024 MB (25%)")))
                .andExpect(content().string(containsString("title=\"" + lrp + "/1 CLAIMED\"")))
                .andExpect(content().string(containsString("CLAIMED 1")))
                .andExpect(content().string(containsString("title=\"" + lrp + "/0 UNCLAIMED\"")));
    }

    @Test
    void theCellsPageReadsOnePageOfCardsAndCountsTheRest() throws Exception {
        for (int i = 0; i < CellsPage.PER_PAGE + 1; i++) {
            cell();
        }
        long live = jdbc.queryForObject("SELECT count(*) FROM cells WHERE expires_at > now()", Long.class);
        String first = page("/ui/cells");
        assertThat(count(first, "data-cell=\"")).isEqualTo(CellsPage.PER_PAGE);
        assertThat(first).contains(live + " live cells; showing 1–" + CellsPage.PER_PAGE, "from=" + CellsPage.PER_PAGE);
        String last = page("/ui/cells?from=" + (live - 1));
        assertThat(count(last, "data-cell=\"")).isEqualTo(1);
        assertThat(last).contains(live + " live cells; showing " + live + "–" + live);
    }

    @Test
    void theOverviewCountsWhatTheDatabaseHolds() throws Exception {
        desire(guid("count"), "apps", 3);
        String overview = page("/ui");
        assertThat(overview).contains("id=\"tile-instances\">"
                + jdbc.queryForObject("SELECT count(*) FROM actual_lrps", Long.class) + "<");
        assertThat(overview).contains("id=\"tile-cells\">"
                + jdbc.queryForObject("SELECT count(*) FROM cells WHERE expires_at > now()", Long.class) + "<");
    }

    @Test
    void theOverviewTasksAndEventsPagesRender() throws Exception {
        String task = guid("task");
        mvc.perform(json(post("/v1/tasks"), io.drover.receptor.TestApi.task(task, "apps")))
                .andExpect(status().isCreated());
        assertThat(page("/ui")).contains("id=\"tile-lrps\"", "events in the last minute", "Instances by state");
        // The converger's last pass, as it records it (no converger runs beside the receptor here).
        passes.record("convergence", "converger-test", java.time.Duration.ofMillis(42), 3);
        assertThat(page("/ui")).contains("id=\"tile-convergence\">42 ms<", "last convergence pass,", "3 actions");
        assertThat(page("/ui/tasks")).contains("Tasks", "PENDING");
        assertThat(page("/ui/events")).contains("id=\"feed\"", "id=\"filter-type\"");
    }

    @Test
    void badInputIsAFourHundredPageNeverAFiveHundred() throws Exception {
        mvc.perform(authed(get("/ui/lrps/no-such-lrp"))).andExpect(status().isNotFound())
                .andExpect(content().string(containsString("no desired LRP with that process_guid")));
        mvc.perform(authed(get("/ui/lrps/bad%20guid!"))).andExpect(status().is4xxClientError());
        mvc.perform(authed(get("/ui/lrps/" + guid("x") + "?from=-1"))).andExpect(status().is4xxClientError());
        mvc.perform(authed(get("/ui/cells?from=abc"))).andExpect(status().isBadRequest())
                .andExpect(content().string(not(containsString("UnknownError"))));
        mvc.perform(authed(get("/ui/lrps").param("domain", "a\u0000b"))).andExpect(status().isBadRequest());
        mvc.perform(authed(get("/ui/lrps").param("search", "x".repeat(300)))).andExpect(status().isBadRequest());
        mvc.perform(authed(get("/ui/tasks").param("after", "\u0007"))).andExpect(status().isBadRequest());
        for (String accept : List.of("application/json", "image/png", "text/html;q=abc", "*/*")) {
            int answered = mvc.perform(authed(get("/ui")).header("Accept", accept)).andReturn().getResponse()
                    .getStatus();
            assertThat(answered).as("GET /ui with Accept: " + accept).isLessThan(500);
        }
    }

    private void desire(String processGuid, String domain, int instances) throws Exception {
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(processGuid, domain, instances)))
                .andExpect(status().isCreated());
    }

    /** A live cell whose id sorts before the other tests' (the cells page shows the first cards by cell_id). */
    private String cell() {
        String cell = guid("0-cell");
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.9", new Resources(1024, 2048, 10),
                List.of("preloaded:host"), List.of("blue"), List.of(), CellIsolation.SAMPLING), Duration.ofSeconds(60));
        return cell;
    }

    private String page(String path) throws Exception {
        return mvc.perform(authed(get(path))).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString();
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
