package io.drover.receptor.deployment;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.json.Json;
import io.drover.receptor.ReceptorTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

/** {@code /v1/desired_lrps/{guid}/deployments} over HTTP against the real database: codes, error names, JSON. */
@ReceptorTest
class DeploymentApiIT {

    @Autowired
    MockMvc mvc;

    @Test
    void aDeploymentMovesTheLrpToANewVersionAndShowsItsCounts() throws Exception {
        String guid = desire();
        String body = mvc.perform(json(post(path(guid)), """
                {"env": [{"name": "V", "value": "2"}], "max_surge": "50%", "min_healthy_time": 3, "canary": 1}"""))
                .andExpect(status().isCreated())
                .andExpect(jsonPath("$.state").value("RUNNING"))
                .andExpect(jsonPath("$.from_version").value(1))
                .andExpect(jsonPath("$.to_version").value(2))
                .andExpect(jsonPath("$.max_surge").value("50%"))
                .andExpect(jsonPath("$.max_unavailable").value("0"))
                .andExpect(jsonPath("$.min_healthy_time").value(3))
                .andExpect(jsonPath("$.progress_deadline").value(600))
                .andExpect(jsonPath("$.auto_revert").value(true))
                .andExpect(jsonPath("$.created_by").value("test-user"))
                .andExpect(jsonPath("$.counts.desired").value(2))
                .andExpect(jsonPath("$.counts.updated").value(0))
                .andReturn().getResponse().getContentAsString();
        String id = Json.tree(body).path("id").asString();
        mvc.perform(authed(get("/v1/desired_lrps/" + guid)))
                .andExpect(jsonPath("$.definition_version").value(2))
                .andExpect(jsonPath("$.env[0].value").value("2"))
                .andExpect(jsonPath("$.memory_mb").value(128));
        mvc.perform(authed(get("/v1/actual_lrps/" + guid)))
                .andExpect(jsonPath("$[0].definition_version").value(1));
        mvc.perform(authed(post(path(guid) + "/" + id + "/pause"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("PAUSED"));
        mvc.perform(authed(post(path(guid) + "/" + id + "/resume"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("RUNNING"));
        mvc.perform(authed(post(path(guid) + "/" + id + "/promote"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.promoted").value(true));
        mvc.perform(authed(get(path(guid)))).andExpect(status().isOk()).andExpect(jsonPath("$[0].id").value(id));
        mvc.perform(authed(post(path(guid) + "/" + id + "/cancel"))).andExpect(status().isOk())
                .andExpect(jsonPath("$.state").value("CANCELLED"))
                .andExpect(jsonPath("$.finished_at").isNotEmpty());
        mvc.perform(authed(post(path(guid) + "/" + id + "/resume"))).andExpect(status().isConflict())
                .andExpect(jsonPath("$.name").value("ResourceConflict"));
        mvc.perform(json(post(path(guid)), "{\"rollback_to\": 1}")).andExpect(status().isCreated())
                .andExpect(jsonPath("$.to_version").value(1));
        mvc.perform(json(post(path(guid)), "{\"rollback_to\": 1}")).andExpect(status().isConflict());
    }

    @Test
    void badRequestsAreNamedAndNeverA5xx() throws Exception {
        String guid = desire();
        mvc.perform(json(post(path(guid)), """
                {"action": {"run": {}}, "max_surge": "lots", "max_unavailable": -1, "min_healthy_time": "x",
                 "auto_revert": "yes", "canary": -2, "instances": 3}"""))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.name").value("InvalidDeployment"))
                .andExpect(jsonPath("$.message").value(containsString("max_surge")))
                .andExpect(jsonPath("$.message").value(containsString("auto_revert")))
                .andExpect(jsonPath("$.message").value(containsString("action.run.path")));
        mvc.perform(json(post(path(guid)), "{}")).andExpect(status().isBadRequest());
        mvc.perform(json(post(path(guid)), "{\"rollback_to\": 1, \"memory_mb\": 64}"))
                .andExpect(status().isBadRequest());
        mvc.perform(json(post(path(guid)), "{\"rollback_to\": 7}")).andExpect(status().isConflict());
        mvc.perform(json(post(path("nope-" + guid)), "{\"memory_mb\": 64}")).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.name").value("DesiredLRPNotFound"));
        mvc.perform(authed(get(path("nope-" + guid)))).andExpect(status().isNotFound());
        mvc.perform(authed(get(path(guid) + "/not-a-uuid"))).andExpect(status().isNotFound())
                .andExpect(jsonPath("$.name").value("DeploymentNotFound"));
        mvc.perform(authed(get(path(guid) + "/00000000-0000-0000-0000-000000000000")))
                .andExpect(status().isNotFound());
        mvc.perform(authed(post(path(guid) + "/00000000-0000-0000-0000-000000000000/promote")))
                .andExpect(status().isNotFound());
    }

    @Test
    void theOpenApiDocumentListsTheDeploymentEndpoints() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.paths['/v1/desired_lrps/{processGuid}/deployments'].post").exists())
                .andExpect(jsonPath("$.paths['/v1/desired_lrps/{processGuid}/deployments'].get").exists())
                .andExpect(jsonPath("$.paths['/v1/desired_lrps/{processGuid}/deployments/{id}'].get").exists());
    }

    private String desire() throws Exception {
        String guid = guid("deploy");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "api-deployments", 2)))
                .andExpect(status().isCreated());
        return guid;
    }

    private static String path(String guid) {
        return "/v1/desired_lrps/" + guid + "/deployments";
    }
}
