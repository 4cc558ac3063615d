package io.drover.receptor.web;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.json;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.options;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.receptor.ReceptorTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

/** Errors the framework raises come out as 4xx in the API's shape; the docs are served. */
@ReceptorTest
class WebEdgeIT {

    @Autowired
    MockMvc mvc;

    @Test
    void aWrongMethodIsMethodNotAllowed() throws Exception {
        invalidRequest(mvc.perform(authed(patch("/v1/desired_lrps"))), 405);
        invalidRequest(mvc.perform(authed(post("/v1/cells"))), 405);
    }

    @Test
    void anUnknownPathIsNotFound() throws Exception {
        invalidRequest(mvc.perform(authed(get("/v1/nothing-here"))), 404);
        invalidRequest(mvc.perform(authed(get("/v2/desired_lrps"))), 404);
    }

    @Test
    void aBodyOverOneMebibyteIsContentTooLarge() throws Exception {
        String big = "{\"annotation\": \"" + "a".repeat(1024 * 1024) + "\"}";
        invalidRequest(mvc.perform(json(post("/v1/desired_lrps"), big)), 413);
        invalidRequest(mvc.perform(json(put("/v1/desired_lrps/x"), big)), 413);
    }

    @Test
    void anUnacceptableAcceptHeaderIsAFourHundredSomething() throws Exception {
        mvc.perform(authed(get("/v1/desired_lrps")).accept(MediaType.APPLICATION_XML))
                .andExpect(status().is4xxClientError());
    }

    @Test
    void corsIsOffUnlessConfigured() throws Exception {
        mvc.perform(options("/v1/desired_lrps").header("Origin", "https://evil.example")
                        .header("Access-Control-Request-Method", "GET"))
                .andExpect(header().doesNotExist("Access-Control-Allow-Origin"));
    }

    @Test
    void servesTheOpenApiDocumentAndSwaggerUi() throws Exception {
        mvc.perform(get("/v3/api-docs"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("/v1/desired_lrps/{processGuid}")))
                .andExpect(content().string(containsString("/v1/events")))
                .andExpect(jsonPath("$.components.securitySchemes.basic.scheme").value("basic"))
                .andExpect(jsonPath("$.components.schemas.DesiredLrpResponse.properties.process_guid").exists())
                .andExpect(jsonPath("$.components.schemas.ActualLrpSnapshot.properties.instance_guid").exists());
        mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk());
    }

    private static void invalidRequest(ResultActions result, int status) throws Exception {
        result.andExpect(status().is(status))
                .andExpect(jsonPath("$.name").value("InvalidRequest"))
                .andExpect(jsonPath("$.message").isString());
    }
}
