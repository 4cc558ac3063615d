package io.drover.receptor.actuallrp;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

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
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;

@ReceptorTest
class ActualLrpApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    CellPresence presence;

    @Test
    void listsInstancesAllByDomainAndByProcessGuid() throws Exception {
        String guid = desire("list", "actual-domain", 2);
        String other = desire("other", "other-domain", 1);
        mvc.perform(authed(get("/v1/actual_lrps")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[*].process_guid", hasItem(guid)))
                .andExpect(jsonPath("$[*].process_guid", hasItem(other)));
        mvc.perform(authed(get("/v1/actual_lrps").param("domain", "actual-domain")))
                .andExpect(jsonPath("$[*].process_guid", hasItem(guid)))
                .andExpect(jsonPath("$[*].process_guid", not(hasItem(other))));
        mvc.perform(authed(get("/v1/actual_lrps/" + guid)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[0].index").value(0))
                .andExpect(jsonPath("$[1].index").value(1))
                .andExpect(jsonPath("$[0].state").value("UNCLAIMED"))
                .andExpect(jsonPath("$[0].domain").value("actual-domain"))
                .andExpect(jsonPath("$[0].since").isNumber())
                .andExpect(jsonPath("$[0].evacuating").value(false))
                .andExpect(jsonPath("$[0].modification_tag.epoch").isString());
        mvc.perform(authed(get("/v1/actual_lrps/" + guid("nothing")))).andExpect(jsonPath("$", hasSize(0)));
    }

    @Test
    void showsOneRunningInstanceWithItsNetInfo() throws Exception {
        String guid = desire("running", "apps", 1);
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        run(key, "cell-actual");
        mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/0")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("RUNNING"))
                .andExpect(jsonPath("$.cell_id").value("cell-actual"))
                .andExpect(jsonPath("$.instance_guid").value("ig-" + guid))
                .andExpect(jsonPath("$.address").value("10.0.0.7"))
                .andExpect(jsonPath("$.ports[0].container_port").value(8080))
                .andExpect(jsonPath("$.ports[0].host_port").value(61001))
                .andExpect(jsonPath("$.crash_count").value(0));
    }

    @Test
    void aDrainingInstanceIsListedAsEvacuatingWithItsAddressBesideItsSlot() throws Exception {
        String guid = desire("draining", "drain-domain", 2);
        ActualLrpKey key = ActualLrpKey.of(guid, 0);
        run(key, "cell-draining");
        String etag = mvc.perform(authed(get("/v1/actual_lrps/" + guid))).andReturn().getResponse().getHeader("ETag");

        actuals.evacuate(Map.of(key, InstanceOwner.of("ig-" + guid, "cell-draining")), Actor.cell("cell-draining"));

        mvc.perform(authed(get("/v1/actual_lrps/" + guid)).header("If-None-Match", etag))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$", hasSize(3)))
                .andExpect(jsonPath("$[0].index").value(0))
                .andExpect(jsonPath("$[0].state").value("UNCLAIMED"))
                .andExpect(jsonPath("$[0].evacuating").value(false))
                .andExpect(jsonPath("$[1].index").value(0))
                .andExpect(jsonPath("$[1].state").value("RUNNING"))
                .andExpect(jsonPath("$[1].evacuating").value(true))
                .andExpect(jsonPath("$[1].cell_id").value("cell-draining"))
                .andExpect(jsonPath("$[1].address").value("10.0.0.7"))
                .andExpect(jsonPath("$[2].index").value(1));
        mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/0")))
                .andExpect(jsonPath("$.evacuating").value(true))
                .andExpect(jsonPath("$.address").value("10.0.0.7"));
        mvc.perform(authed(get("/v1/actual_lrps").param("domain", "drain-domain").param("limit", "1")))
                .andExpect(jsonPath("$", hasSize(2)))
                .andExpect(jsonPath("$[1].evacuating").value(true));
    }

    @Test
    void aMissingIndexIsActualLrpIndexNotFound() throws Exception {
        String guid = desire("missing", "apps", 1);
        expectNotFound(mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/5"))));
        expectNotFound(mvc.perform(authed(get("/v1/actual_lrps/bad.guid/index/0"))));
        expectNotFound(mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/-1"))));
        mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/abc")))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidRequest"));
    }

    @Test
    void restartingAnUnclaimedInstanceDeletesItForTheConvergerToRecreate() throws Exception {
        String guid = desire("restart", "apps", 2);
        mvc.perform(authed(delete("/v1/actual_lrps/" + guid + "/index/1"))).andExpect(status().isNoContent());
        expectNotFound(mvc.perform(authed(get("/v1/actual_lrps/" + guid + "/index/1"))));
        expectNotFound(mvc.perform(authed(delete("/v1/actual_lrps/" + guid + "/index/1"))));
        expectNotFound(mvc.perform(authed(delete("/v1/actual_lrps/" + guid + "/index/9"))));
    }

    @Test
    void restartingARunningInstanceAsksItsCellToStopIt() throws Exception {
        String guid = desire("restart-running", "apps", 1);
        presence.heartbeat(new CellRegistration("cell-restart", "z1", "10.0.0.8", new Resources(1024, 1024, 4),
                List.of("preloaded:host"), List.of(), List.of()), Duration.ofSeconds(30));
        run(ActualLrpKey.of(guid, 0), "cell-restart");
        mvc.perform(authed(delete("/v1/actual_lrps/" + guid + "/index/0"))).andExpect(status().isNoContent());
        List<String> stops = jdbc.queryForList("SELECT convert_from(payload, 'UTF8') FROM outbox "
                + "WHERE topic = 'drover.lrp.stop-requests' "
                + "AND message_key = 'cell-restart'", String.class);
        assertThat(stops).anyMatch(p -> p.contains(guid) && p.contains("ig-" + guid));
    }

    private void run(ActualLrpKey key, String cell) {
        InstanceOwner owner = InstanceOwner.of("ig-" + key.processGuid(), cell);
        actuals.place(UUID.randomUUID(), Map.of(key, cell), Actor.service("auctioneer"));
        actuals.claim(key, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(key, "apps", owner,
                new NetInfo("10.0.0.7", List.of(new NetInfo.PortMapping(8080, 61001)))), Actor.cell(cell));
    }

    private String desire(String prefix, String domain, int instances) throws Exception {
        String guid = guid(prefix);
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, domain, instances)))
                .andExpect(status().isCreated());
        return guid;
    }

    private static void expectNotFound(org.springframework.test.web.servlet.ResultActions result) throws Exception {
        result.andExpect(status().isNotFound()).andExpect(jsonPath("$.name").value("ActualLRPIndexNotFound"));
    }
}
