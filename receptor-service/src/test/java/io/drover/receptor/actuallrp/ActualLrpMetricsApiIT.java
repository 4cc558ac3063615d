package io.drover.receptor.actuallrp;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasSize;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.InstanceUsages;
import io.drover.model.usage.UsageRound;
import io.drover.receptor.ReceptorTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

/** SPEC 15: each index's usage, as the reps wrote it; only the incarnation its actual LRP names now. */
@ReceptorTest
class ActualLrpMetricsApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    InstanceUsages usages;

    @Test
    void showsTheFiguresOfEachRunningIndexAndNothingOfOldIncarnations() throws Exception {
        String guid = guid("metrics");
        String cell = guid("cell");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 3))).andExpect(status().isCreated());
        run(ActualLrpKey.of(guid, 0), "ig0-" + guid, cell);
        run(ActualLrpKey.of(guid, 1), "ig1-" + guid, cell);
        Instant started = Instant.now().minusSeconds(125);
        usages.write(UsageRound.of(List.of(cell), List.of(
                new InstanceUsage(guid, 0, "ig0-" + guid, cell, 12.5, 50L << 20, 128L << 20, 4096, started),
                new InstanceUsage(guid, 1, "ig1-" + guid, cell, 0.5, 40L << 20, 128L << 20, 8192, started),
                new InstanceUsage(guid, 1, "old-" + guid, cell, 99, 1, 1, 1, started)), Set.of(), false));

        mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/metrics")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[0].index").value(0))
                .andExpect(jsonPath("$[0].instance_guid").value("ig0-" + guid))
                .andExpect(jsonPath("$[0].cell_id").value(cell))
                .andExpect(jsonPath("$[0].cpu_percent").value(12.5))
                .andExpect(jsonPath("$[0].memory_bytes").value(50L << 20))
                .andExpect(jsonPath("$[0].memory_limit_bytes").value(128L << 20))
                .andExpect(jsonPath("$[0].disk_bytes").value(4096))
                .andExpect(jsonPath("$[0].uptime_s").value(greaterThanOrEqualTo(125)))
                .andExpect(jsonPath("$[1].index").value(1))
                .andExpect(jsonPath("$[1].instance_guid").value("ig1-" + guid));
    }

    @Test
    void anUnknownOrMalformedProcessGuidHasNoInstancesToShow() throws Exception {
        mvc.perform(authed(get("/v1/actual_lrps/" + guid("nothing") + "/metrics")))
                .andExpect(status().isOk()).andExpect(jsonPath("$", hasSize(0)));
        mvc.perform(authed(get("/v1/actual_lrps/bad.guid/metrics")))
                .andExpect(status().isOk()).andExpect(jsonPath("$", hasSize(0)));
        mvc.perform(get("/v1/actual_lrps/x/metrics")).andExpect(status().isUnauthorized());
    }

    @Test
    void isInTheOpenApiDocument() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paths['/v1/actual_lrps/{processGuid}/metrics'].get.summary").isString())
                .andExpect(jsonPath("$.components.schemas.InstanceMetricsResponse.properties.cpu_percent").exists())
                .andExpect(jsonPath("$.components.schemas.InstanceMetricsResponse.properties.uptime_s").exists())
                .andExpect(jsonPath("$.components.schemas.CellResponse.properties.isolation").exists());
    }

    private void run(ActualLrpKey key, String instanceGuid, String cell) {
        InstanceOwner owner = InstanceOwner.of(instanceGuid, cell);
        actuals.place(UUID.randomUUID(), Map.of(key, cell), Actor.service("auctioneer"));
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, "apps", owner,
                new NetInfo("10.0.0.7", List.of(new NetInfo.PortMapping(8080, 61001)))), Actor.cell(cell));
    }
}
