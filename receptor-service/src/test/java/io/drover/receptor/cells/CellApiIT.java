package io.drover.receptor.cells;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.receptor.ReceptorTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

@ReceptorTest
class CellApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    CellPresence presence;
    @Autowired
    ActualLrpLifecycle actuals;

    @Test
    void availableIsCapacityMinusClaimedInstancesAndPlacementsInFlight() throws Exception {
        String cell = guid("cell");
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.9", new Resources(1024, 2048, 10),
                List.of("preloaded:host"), List.of("blue"), List.of("green"), CellIsolation.CGROUPS_V1),
                Duration.ofSeconds(15));
        String lrp = guid("on-cell");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(lrp, "apps", 3))).andExpect(status().isCreated());
        ActualLrpKey placed = ActualLrpKey.of(lrp, 0);
        ActualLrpKey claimed = ActualLrpKey.of(lrp, 1);
        actuals.place(UUID.randomUUID(), Map.of(placed, cell, claimed, cell), Actor.service("auctioneer"));
        actuals.claim(claimed, InstanceOwner.of("ig-1", cell), Actor.cell(cell));

        String path = "$[?(@.cell_id == '" + cell + "')]";
        mvc.perform(authed(get("/v1/cells")))
                .andExpect(status().isOk())
                .andExpect(jsonPath(path + ".zone").value("z1"))
                .andExpect(jsonPath(path + ".address").value("10.0.0.9"))
                .andExpect(jsonPath(path + ".state").value("ACTIVE"))
                .andExpect(jsonPath(path + ".capacity.memory_mb").value(1024))
                .andExpect(jsonPath(path + ".capacity.containers").value(10))
                .andExpect(jsonPath(path + ".available.memory_mb").value(1024 - 2 * 128))
                .andExpect(jsonPath(path + ".available.disk_mb").value(2048 - 2 * 256))
                .andExpect(jsonPath(path + ".available.containers").value(8))
                .andExpect(jsonPath(path + ".rootfs_providers[0]").value("preloaded:host"))
                .andExpect(jsonPath(path + ".placement_tags[0]").value("blue"))
                .andExpect(jsonPath(path + ".isolation").value("CGROUPS_V1"))
                .andExpect(jsonPath(path + ".heartbeat_at").isNotEmpty());
    }

    @Test
    void aTwinKeptServingByARolloutTakesWhatItsInstanceTookUntilItIsGone() throws Exception {
        String cell = guid("cell");
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.7", new Resources(1024, 2048, 10),
                List.of("preloaded:host"), List.of(), List.of(), CellIsolation.SAMPLING), Duration.ofSeconds(15));
        String lrp = guid("rolled");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(lrp, "apps", 1))).andExpect(status().isCreated());
        ActualLrpKey zero = ActualLrpKey.of(lrp, 0);
        InstanceOwner old = InstanceOwner.of("ig-old", cell);
        actuals.claim(zero, old, Actor.cell(cell));
        actuals.start(new StartedInstance(zero, "apps", old, new NetInfo("10.0.0.7", List.of())), Actor.cell(cell));
        mvc.perform(json(post("/v1/desired_lrps/" + lrp + "/deployments"), "{\"env\": [{\"name\": \"V\", "
                + "\"value\": \"2\"}]}")).andExpect(status().isCreated());

        // the deployer's surge: the old instance serves on from a twin on the cell while its slot is auctioned
        actuals.roll(List.of(zero), 2, true, "deployment", Actor.service("deployer"));

        String path = "$[?(@.cell_id == '" + cell + "')]";
        mvc.perform(authed(get("/v1/cells")))
                .andExpect(status().isOk())
                .andExpect(jsonPath(path + ".available.memory_mb").value(1024 - 128))
                .andExpect(jsonPath(path + ".available.disk_mb").value(2048 - 256))
                .andExpect(jsonPath(path + ".available.containers").value(9));
    }

    @Test
    void aCellWhosePresenceExpiredIsNotListed() throws Exception {
        String gone = guid("gone");
        presence.heartbeat(new CellRegistration(gone, "z1", "10.0.0.8", new Resources(1024, 2048, 10),
                List.of("preloaded:host"), List.of(), List.of(), CellIsolation.SAMPLING), Duration.ofSeconds(-1));

        mvc.perform(authed(get("/v1/cells")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.cell_id == '" + gone + "')]").isEmpty());
    }
}
