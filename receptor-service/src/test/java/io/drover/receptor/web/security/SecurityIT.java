package io.drover.receptor.web.security;

import static io.drover.receptor.TestApi.authed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

/** SPEC 5.5: credentials on everything but health and the API docs; 401 in the API's shape. */
@ReceptorTest
class SecurityIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ApplicationContext context;

    @Test
    void everyApiPathNeedsCredentials() throws Exception {
        for (String path : new String[] { "/v1/desired_lrps", "/v1/desired_lrps/x", "/v1/actual_lrps",
                "/v1/actual_lrps/x/index/0", "/v1/cells", "/v1/domains", "/v1/events", "/v1/unknown" }) {
            unauthorized(mvc.perform(get(path)));
        }
        unauthorized(mvc.perform(post("/v1/desired_lrps").content("{}")));
    }

    /**
     * A browser that holds the credentials (the dashboard's) must not be made to write by a page of another site: a
     * form POST of text/plain needs no CORS. Writes from another origin, or that a browser marks as cross-site, get
     * 403 and change nothing; the receptor's own origin and clients that send no such header go on.
     */
    @Test
    void browsersCannotBeMadeToWriteFromAnotherSite() throws Exception {
        String guid = TestApi.guid("csrf");
        mvc.perform(authed(post("/v1/desired_lrps")).header("Origin", "https://evil.example")
                .contentType("text/plain").content(TestApi.desiredLrp(guid, "apps", 1)))
                .andExpect(status().isForbidden()).andExpect(jsonPath("$.name").value("Forbidden"))
                .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("another origin")));
        mvc.perform(authed(post("/v1/desired_lrps")).header("Sec-Fetch-Site", "cross-site")
                .contentType("application/json").content(TestApi.desiredLrp(guid, "apps", 1)))
                .andExpect(status().isForbidden());
        mvc.perform(authed(request(HttpMethod.DELETE, "/v1/desired_lrps/" + guid)).header("Origin", "null"))
                .andExpect(status().isForbidden());
        mvc.perform(authed(get("/v1/desired_lrps/" + guid))).andExpect(status().isNotFound());
        mvc.perform(authed(get("/v1/desired_lrps")).header("Origin", "https://evil.example"))
                .andExpect(status().isOk());
        mvc.perform(authed(post("/v1/desired_lrps")).header("Origin", "http://localhost")
                .header("Sec-Fetch-Site", "same-origin").contentType("application/json")
                .content(TestApi.desiredLrp(guid, "apps", 1))).andExpect(status().isCreated());
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

    /**
     * Every (method, path) any handler mapping serves (the API, /error, springdoc's and the actuator's), with its path
     * variables filled in: 401 without credentials and 401 with wrong ones, except the documented open set
     * (docs/receptor-api.md, Security), which must answer without credentials.
     */
    @Test
    void everyMappedEndpointNeedsCredentialsExceptTheDocumentedOpenOnes() throws Exception {
        Set<String> endpoints = mappedEndpoints();
        assertThat(endpoints).as("the enumeration sees the API, the docs, the actuator and /error").contains(
                "GET /v1/desired_lrps/x", "DELETE /v1/actual_lrps/x/index/0", "PUT /v1/domains/x", "GET /v1/events",
                "GET /v3/api-docs", "GET /swagger-ui.html", "GET /actuator/prometheus", "GET /actuator/health",
                "GET /error");
        String wrong = "Basic " + Base64.getEncoder().encodeToString("test-user:nope".getBytes(StandardCharsets.UTF_8));
        Set<String> open = new TreeSet<>();
        for (String endpoint : endpoints) {
            String[] methodAndPath = endpoint.split(" ", 2);
            if (isDocumentedOpen(methodAndPath[1])) {
                int status = mvc.perform(request(HttpMethod.valueOf(methodAndPath[0]), methodAndPath[1])).andReturn()
                        .getResponse().getStatus();
                assertThat(status).as("documented open: %s", endpoint).isNotIn(401, 403);
                open.add(endpoint);
                continue;
            }
            unauthorized(mvc.perform(request(HttpMethod.valueOf(methodAndPath[0]), methodAndPath[1])), endpoint);
            unauthorized(mvc.perform(request(HttpMethod.valueOf(methodAndPath[0]), methodAndPath[1])
                    .header("Authorization", wrong)), endpoint + " with wrong credentials");
        }
        assertThat(open).as("the open endpoints").allMatch(e -> e.startsWith("GET "))
                .contains("GET /actuator/health", "GET /v3/api-docs", "GET /swagger-ui.html");
    }

    /** The documented open set: health (and its groups), the OpenAPI document and Swagger UI. Nothing else. */
    private static boolean isDocumentedOpen(String path) {
        return path.equals("/actuator/health") || path.startsWith("/actuator/health/") || path.equals("/v3/api-docs")
                || path.startsWith("/v3/api-docs/") || path.equals("/swagger-ui.html") || path.startsWith("/swagger-ui/");
    }

    private Set<String> mappedEndpoints() {
        Set<String> endpoints = new TreeSet<>();
        for (RequestMappingInfoHandlerMapping mapping : context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
                .values()) {
            for (RequestMappingInfo info : mapping.getHandlerMethods().keySet()) {
                Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
                for (RequestMethod method : methods.isEmpty() ? EnumSet.of(RequestMethod.GET, RequestMethod.POST,
                        RequestMethod.PUT, RequestMethod.DELETE, RequestMethod.PATCH) : methods) {
                    info.getPatternValues().forEach(pattern -> endpoints.add(method + " " + fillIn(pattern)));
                }
            }
        }
        return endpoints;
    }

    /** A concrete path for a pattern: {@code {index}} becomes 0, other variables and wildcards {@code x}. */
    static String fillIn(String pattern) {
        return pattern.replace("{index}", "0").replaceAll("\\{\\*?[^}]+}", "x").replace("/**", "/x")
                .replace("*", "x");
    }

    private static void unauthorized(ResultActions result, String endpoint) throws Exception {
        assertThat(result.andReturn().getResponse().getStatus()).as(endpoint).isEqualTo(401);
        unauthorized(result);
    }

    private static void unauthorized(ResultActions result) throws Exception {
        result.andExpect(status().isUnauthorized())
                .andExpect(header().string("WWW-Authenticate", "Basic realm=\"drover\""))
                .andExpect(jsonPath("$.name").value("Unauthorized"));
    }
}
