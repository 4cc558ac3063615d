package io.drover.receptor.events;

import static io.drover.receptor.TestApi.AUTHORIZATION;
import static io.drover.receptor.TestApi.desiredLrp;
import static io.drover.receptor.TestApi.guid;
import static io.drover.receptor.TestApi.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.drover.model.json.Json;
import io.drover.receptor.ReceptorTest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;

/** The SSE stream, end to end: API write, lrp_events, this receptor's tail, a real HTTP client. */
@ReceptorTest
class EventStreamIT {

    @LocalServerPort
    int port;
    @Autowired
    MockMvc mvc;
    @Autowired
    EventTail tail;
    @Autowired
    EventStream stream;

    private final List<SseFrames> opened = new ArrayList<>();

    @AfterEach
    void hangUp() throws Exception {
        for (SseFrames client : opened) {
            client.close();
        }
    }

    @Test
    void aTailNobodyListensToReadsNothingAndAClientThatConnectsGetsEveryEventFromThenOn() throws Exception {
        // every test hangs up its clients; the receptor notices at the next heartbeat (1 s here)
        await().atMost(Duration.ofSeconds(30)).until(() -> stream.clientCount() == 0 && !tail.isReading());
        String unheard = guid("sse-unheard");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(unheard, "apps", 2))).andExpect(status().isCreated());
        assertThat(tail.isReading()).as("nobody listens: the tail neither reads nor listens").isFalse();

        SseFrames client = connect();
        String heard = guid("sse-heard");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(heard, "apps", 1))).andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(client, heard).size() >= 2);
        assertThat(framesOf(client, heard)).extracting(SseFrames.Frame::event)
                .containsExactly("desired_lrp_created", "actual_lrp_created");
        assertThat(framesOf(client, unheard)).as("written before the stream opened").isEmpty();
        assertThat(tail.isReading()).isTrue();
    }

    @Test
    void aClientSeesTheDesiredLrpCreatedThenItsThreeInstances() throws Exception {
        SseFrames client = connect();
        String guid = guid("sse");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 3))).andExpect(status().isCreated());

        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(client, guid).size() >= 4);
        List<SseFrames.Frame> frames = framesOf(client, guid);
        assertThat(frames).extracting(SseFrames.Frame::event).containsExactly("desired_lrp_created",
                "actual_lrp_created", "actual_lrp_created", "actual_lrp_created");
        JsonNode desired = Json.tree(frames.get(0).data()).get("desired_lrp");
        assertThat(desired.get("instances").intValue()).isEqualTo(3);
        assertThat(desired.get("routes").get("http").get(0).stringValue()).isEqualTo("web.example.com");
        assertThat(desired.get("action").get("run").get("path").stringValue()).isEqualTo("sleep");
        assertThat(desired.get("modification_tag").get("index").intValue()).isZero();
        for (int i = 1; i <= 3; i++) {
            JsonNode actual = Json.tree(frames.get(i).data()).get("actual_lrp");
            assertThat(actual.get("state").stringValue()).isEqualTo("UNCLAIMED");
            assertThat(actual.get("index").intValue()).isEqualTo(i - 1);
            assertThat(actual.has("modification_tag")).isTrue();
        }
        assertThat(frames).extracting(SseFrames.Frame::id).isSorted().doesNotHaveDuplicates();
        await().atMost(Duration.ofSeconds(10)).until(() -> client.comments.contains("heartbeat"));
    }

    @Test
    void aChangeCarriesBeforeAndAfter() throws Exception {
        SseFrames client = connect();
        String guid = guid("sse-change");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(guid, "apps", 0))).andExpect(status().isCreated());
        mvc.perform(json(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put(
                "/v1/desired_lrps/" + guid), "{\"annotation\": \"v2\"}")).andExpect(status().isNoContent());
        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(client, guid).size() >= 2);
        SseFrames.Frame changed = framesOf(client, guid).get(1);
        assertThat(changed.event()).isEqualTo("desired_lrp_changed");
        JsonNode data = Json.tree(changed.data());
        assertThat(data.get("desired_lrp_before").get("annotation").stringValue()).isEqualTo("v1");
        assertThat(data.get("desired_lrp_after").get("annotation").stringValue()).isEqualTo("v2");
    }

    /**
     * A client that does not read (its socket's buffers full) never holds back the others: the fast one gets every
     * event at once; the slow one, once it reads again, gets every event too, each once and in order (what its full
     * queue could not take it reads from PostgreSQL).
     */
    @Test
    void aSlowClientNeverHoldsBackAFastOneAndLaterGetsEveryEventOnce() throws Exception {
        SseFrames fast = connect();
        String burst = guid("sse-burst");
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new java.net.InetSocketAddress("localhost", port));
            OutputStream out = slow.getOutputStream();
            // HTTP/1.0: no chunked encoding, so the test reads the frames straight off the socket
            out.write(("GET /v1/events HTTP/1.0\r\nHost: localhost\r\nAuthorization: " + AUTHORIZATION
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.clientCount() >= 2);
            int lrps = 6;
            int instances = 999;
            for (int i = 0; i < lrps; i++) {
                mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(burst + "-" + i, "apps", instances)))
                        .andExpect(status().isCreated());
            }
            int total = lrps * (1 + instances);
            await().atMost(Duration.ofSeconds(120)).until(() -> framesOf(fast, burst).size() >= total);

            SseFrames late = new SseFrames(slow.getInputStream());
            await().atMost(Duration.ofSeconds(120)).until(() -> framesOf(late, burst).size() >= total);
            assertThat(framesOf(late, burst)).hasSize(total).isEqualTo(framesOf(fast, burst));
            assertThat(framesOf(late, burst)).extracting(SseFrames.Frame::id).isSorted().doesNotHaveDuplicates();
        }
    }

    private SseFrames connect() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/events"))
                .header("Authorization", AUTHORIZATION).header("Accept", "text/event-stream").GET().build();
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request,
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("text/event-stream");
        SseFrames frames = new SseFrames(response.body());
        opened.add(frames);
        await().atMost(Duration.ofSeconds(10)).until(() -> frames.comments.contains("connected"));
        return frames;
    }

    private static List<SseFrames.Frame> framesOf(SseFrames client, String guid) {
        return client.events.stream().filter(f -> f.data().contains("\"" + guid)).toList();
    }
}
