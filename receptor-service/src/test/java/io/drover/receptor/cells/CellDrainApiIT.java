package io.drover.receptor.cells;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 18's cell endpoints: {@code GET /v1/cells/{cell_id}}, and a drain asked with {@code POST .../drain} (202) and
 * withdrawn with {@code DELETE .../drain}. The drain's progress is what the cell still carries; who asked is audited.
 */
@ReceptorTest
class CellDrainApiIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    CellPresence presence;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aDrainIsAcceptedAndTheCellShowsItsStateAndWhatItStillCarries() throws Exception {
        String cell = cell(Duration.ofSeconds(15));
        String lrp = guid("on-drained");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(lrp, "apps", 1))).andExpect(status().isCreated());
        ActualLrpKey zero = ActualLrpKey.of(lrp, 0);
        InstanceOwner owner = InstanceOwner.of("ig-1", cell);
        actuals.claim(zero, owner, Actor.cell(cell));
        actuals.start(new StartedInstance(zero, "apps", owner, new NetInfo("10.0.0.9", List.of())), Actor.cell(cell));
        Instant before = Instant.now().minusSeconds(1);

        mvc.perform(json(post("/v1/cells/" + cell + "/drain"), "{\"deadline\": 120}"))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.cell_id").value(cell))
                .andExpect(jsonPath("$.state").value("EVACUATING"))
                .andExpect(jsonPath("$.drain.requested_by").value(TestApi.USERNAME))
                .andExpect(jsonPath("$.drain.instances_left").value(1))
                .andExpect(jsonPath("$.drain.tasks_left").value(0));

        String body = mvc.perform(authed(get("/v1/cells/" + cell))).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("EVACUATING"))
                .andExpect(jsonPath("$.zone").value("z1"))
                .andExpect(jsonPath("$.drain.instances_left").value(1))
                .andReturn().getResponse().getContentAsString();
        JsonNode drain = Json.tree(body).path("drain");
        Instant started = Instant.parse(drain.path("started_at").asString());
        assertThat(started).isAfter(before);
        assertThat(Instant.parse(drain.path("deadline_at").asString())).isEqualTo(started.plusSeconds(120));
        mvc.perform(authed(get("/v1/cells"))).andExpect(status().isOk())
                .andExpect(jsonPath("$[?(@.cell_id == '" + cell + "')].state").value("EVACUATING"))
                .andExpect(jsonPath("$[?(@.cell_id == '" + cell + "')].drain.instances_left").value(1));
        assertThat(jdbc.queryForObject("SELECT reason FROM lrp_events WHERE entity = 'cell' AND process_guid = ? "
                + "ORDER BY id DESC LIMIT 1", String.class, cell)).startsWith("drain requested by " + TestApi.USERNAME);
    }

    @Test
    void anUndrainMakesTheCellActiveAgainAndSaysWhoDidIt() throws Exception {
        String cell = cell(Duration.ofSeconds(15));
        mvc.perform(authed(post("/v1/cells/" + cell + "/drain"))).andExpect(status().isAccepted())
                .andExpect(jsonPath("$.drain.deadline_at").isNotEmpty());

        mvc.perform(authed(delete("/v1/cells/" + cell + "/drain")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("ACTIVE"))
                .andExpect(jsonPath("$.drain").isEmpty());

        mvc.perform(authed(get("/v1/cells/" + cell))).andExpect(jsonPath("$.state").value("ACTIVE"));
        assertThat(jdbc.queryForList("SELECT reason FROM lrp_events WHERE entity = 'cell' AND process_guid = ? "
                + "ORDER BY id", String.class, cell)).last().isEqualTo("undrained by " + TestApi.USERNAME);
    }

    @Test
    void anUnknownCellIsNotFound() throws Exception {
        for (var request : List.of(get("/v1/cells/no-such-cell"), post("/v1/cells/no-such-cell/drain"),
                delete("/v1/cells/no-such-cell/drain"))) {
            mvc.perform(authed(request)).andExpect(status().isNotFound())
                    .andExpect(jsonPath("$.name").value("CellNotFound"))
                    .andExpect(jsonPath("$.message").value("cell not found: no-such-cell"));
        }
    }

    @Test
    void aCellWhoseRepIsGoneCannotBeDrained() throws Exception {
        String gone = cell(Duration.ofSeconds(-1));

        mvc.perform(authed(post("/v1/cells/" + gone + "/drain"))).andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("CellGone"));
    }

    @Test
    void aDeadlineMustBeAPositiveNumberOfSeconds() throws Exception {
        String cell = cell(Duration.ofSeconds(15));
        for (String body : List.of("{\"deadline\": 0}", "{\"deadline\": -5}", "{\"deadline\": \"10m\"}",
                "{\"deadline\": 1.5}", "{\"deadline\": 99999999999}", "{\"deadlin\": 10}")) {
            mvc.perform(json(post("/v1/cells/" + cell + "/drain"), body)).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.name").value("InvalidRequest"));
        }
        for (String body : List.of("{", "[]")) {
            mvc.perform(json(post("/v1/cells/" + cell + "/drain"), body)).andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.name").value("InvalidJSON"));
        }
        mvc.perform(authed(get("/v1/cells/" + cell))).andExpect(jsonPath("$.state").value("ACTIVE"));
    }

    private String cell(Duration ttl) {
        String cell = guid("cell");
        presence.heartbeat(new CellRegistration(cell, "z1", "10.0.0.9", new Resources(1024, 2048, 10),
                List.of("preloaded:host"), List.of(), List.of(), CellIsolation.SAMPLING), ttl);
        return cell;
    }
}
