package io.drover.receptor.web.security;

import static io.drover.receptor.TestApi.authed;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.receptor.ReceptorTest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;

@ReceptorTest
class SecurityIT {

    @Autowired
    MockMvc mvc;

    @Test
    void everyApiPathNeedsCredentials() throws Exception {
        for (String path : new String[] { "/v1/desired_lrps", "/v1/desired_lrps/x", "/v1/actual_lrps",
                "/v1/actual_lrps/x/index/0", "/v1/cells", "/v1/domains", "/v1/events", "/v1/unknown" }) {
            unauthorized(mvc.perform(get(path)));
        }
        unauthorized(mvc.perform(post("/v1/desired_lrps").content("{}")));
    }

    @Test
    void wrongCredentialsAreUnauthorized() throws Exception {
        String wrong = "Basic " + Base64.getEncoder().encodeToString("test-user:nope".getBytes(StandardCharsets.UTF_8));
        unauthorized(mvc.perform(get("/v1/desired_lrps").header("Authorization", wrong)));
        unauthorized(mvc.perform(get("/v1/desired_lrps").header("Authorization", "Basic !!!")));
        unauthorized(mvc.perform(get("/v1/desired_lrps").header("Authorization", "Bearer abc")));
    }

    @Test
    void healthIsOpenButOtherActuatorEndpointsAreNot() throws Exception {
        mvc.perform(get("/actuator/health")).andExpect(status().isOk());
        mvc.perform(get("/actuator/health/liveness")).andExpect(status().isOk());
        unauthorized(mvc.perform(get("/actuator/prometheus")));
        unauthorized(mvc.perform(get("/actuator/info")));
        mvc.perform(authed(get("/actuator/prometheus"))).andExpect(status().isOk());
    }

    private static void unauthorized(ResultActions result) throws Exception {
        result.andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", "Basic realm=\"drover\""))
                .andExpect(jsonPath("$.name").value("Unauthorized"));
    }
}
