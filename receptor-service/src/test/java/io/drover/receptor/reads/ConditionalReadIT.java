package io.drover.receptor.reads;

import static io.drover.receptor.TestApi.authed;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;

/** Every read carries an ETag; If-None-Match with the current one answers 304 with no body, until something changes. */
@ReceptorTest
class ConditionalReadIT {

    @Autowired
    MockMvc mvc;
    @Autowired
    ActualLrpLifecycle actuals;
    @Autowired
    DesiredLrpLifecycle desired;
    @LocalServerPort
    int port;

    @Test
    void aDesiredLrpIsNotModifiedUntilItChanges() throws Exception {
        String guid = TestApi.guid("cond");
        mvc.perform(json(post("/v1/desired_lrps"), TestApi.desiredLrp(guid, "cond", 1)));
        String path = "/v1/desired_lrps/" + guid;
        String etag = read(path, null).getHeader("ETag");
        assertThat(etag).matches("\"[0-9a-f-]{36}:0\"");

        assertNotModified(path, etag);
        assertNotModified(path, "W/" + etag);
        assertNotModified(path, "\"other\", " + etag);
        assertNotModified(path, "*");
        assertThat(read(path, "\"" + UUID.randomUUID() + ":0\"").getStatus()).isEqualTo(200);

        mvc.perform(json(put(path), "{\"annotation\": \"changed\"}"));
        MockHttpServletResponse changed = read(path, etag);
        assertThat(changed.getStatus()).isEqualTo(200);
        assertThat(changed.getHeader("ETag")).isNotEqualTo(etag).endsWith(":1\"");
        assertThat(read("/v1/desired_lrps/" + TestApi.guid("none"), etag).getStatus()).as("missing").isEqualTo(404);
    }

    @Test
    void actualLrpsAndListsAreNotModifiedUntilAnInstanceChanges() throws Exception {
        String domain = TestApi.guid("cond-domain");
        String guid = TestApi.guid("cond");
        mvc.perform(json(post("/v1/desired_lrps"), TestApi.desiredLrp(guid, domain, 2)));
        List<String> paths = List.of("/v1/actual_lrps/" + guid, "/v1/actual_lrps/" + guid + "/index/0",
                "/v1/actual_lrps?domain=" + domain, "/v1/actual_lrps?domain=" + domain + "&limit=1",
                "/v1/desired_lrps?domain=" + domain, "/v1/desired_lrps?domain=" + domain + "&limit=5");
        Map<String, String> tags = new java.util.HashMap<>();
        for (String path : paths) {
            tags.put(path, read(path, null).getHeader("ETag"));
            assertNotModified(path, tags.get(path));
        }

        actuals.place(UUID.randomUUID(), Map.of(ActualLrpKey.of(guid, 0), "cell-cond"), Actor.service("test"));
        for (String path : paths.subList(0, 4)) {
            MockHttpServletResponse after = read(path, tags.get(path));
            assertThat(after.getStatus()).as(path).isEqualTo(200);
            assertThat(after.getHeader("ETag")).as(path).isNotEqualTo(tags.get(path));
        }
        assertNotModified(paths.get(4), tags.get(paths.get(4)));

        desired.desire(new DesiredLrpDefinition(TestApi.guid("cond-new"), domain, "preloaded:host", 0,
                new io.drover.model.lrp.Action(new io.drover.model.lrp.RunAction("x", null, null, null, null)), null,
                null, 0, null, null, 0, 0, 0, 0, null, null, null, null, null), Actor.service("test"));
        assertThat(read(paths.get(4), tags.get(paths.get(4))).getStatus()).as("a new LRP in the list").isEqualTo(200);
    }

    @Test
    void cellsAndDomainsCarryAnETagOfTheirBody() throws Exception {
        for (String path : List.of("/v1/cells", "/v1/domains")) {
            String etag = read(path, null).getHeader("ETag");
            assertThat(etag).as(path).startsWith("W/\"");
            assertNotModified(path, etag);
        }
    }

    @Test
    void aLargeListIsGzippedForAClientThatAcceptsItAndSmallAnswersAreNot() throws Exception {
        String domain = TestApi.guid("gzip");
        mvc.perform(json(post("/v1/desired_lrps"), TestApi.desiredLrp(TestApi.guid("gzip"), domain, 100)));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<byte[]> large = http.send(request("/v1/actual_lrps?domain=" + domain), HttpResponse.BodyHandlers
                .ofByteArray());
        assertThat(large.statusCode()).isEqualTo(200);
        assertThat(large.headers().firstValue("Content-Encoding")).contains("gzip");
        String body = new String(new GZIPInputStream(new java.io.ByteArrayInputStream(large.body())).readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(body).startsWith("[{\"process_guid\"").endsWith("}]");
        assertThat(body.split("\"process_guid\"")).hasSize(101);

        HttpResponse<byte[]> small = http.send(request("/v1/domains"), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(small.headers().firstValue("Content-Encoding")).isEmpty();
    }

    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Authorization", TestApi.AUTHORIZATION).header("Accept-Encoding", "gzip").build();
    }

    private void assertNotModified(String path, String ifNoneMatch) throws Exception {
        MockHttpServletResponse response = read(path, ifNoneMatch);
        assertThat(response.getStatus()).as(path + " If-None-Match: " + ifNoneMatch).isEqualTo(304);
        assertThat(response.getContentAsByteArray()).as(path).isEmpty();
        assertThat(response.getHeader("ETag")).as(path).isNotNull();
    }

    private MockHttpServletResponse read(String path, String ifNoneMatch) throws Exception {
        var request = authed(get(path));
        if (ifNoneMatch != null) {
            request.header("If-None-Match", ifNoneMatch);
        }
        return mvc.perform(request).andReturn().getResponse();
    }
}
