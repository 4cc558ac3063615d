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
import io.drover.model.messaging.Topics;
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
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;

/** The SSE stream, end to end: API write, outbox, Kafka, this receptor's feed, a real HTTP client. */
@ReceptorTest
class EventStreamIT {

    @LocalServerPort
    int port;
    @Autowired
    MockMvc mvc;
    @Autowired
    LifecycleEventFeed feed;
    @Autowired
    EventStream stream;
    @Autowired
    ConsumerFactory<?, ?> consumers;

    private final List<SseFrames> opened = new ArrayList<>();

    @AfterEach
    void hangUp() throws Exception {
        for (SseFrames client : opened) {
            client.close();
        }
    }

    @Test
    void aFeedNobodyListensToFetchesNothingAndAClientThatConnectsGetsEveryEventFromThenOn() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(feed::isReady);
        // every test hangs up its clients; the receptor notices at the next heartbeat (1 s here)
        await().atMost(Duration.ofSeconds(30)).until(() -> stream.clientCount() == 0 && !feed.isReading());
        long read = feed.recordsRead();
        long written = lifecycleEventsOnKafka();
        String unheard = guid("sse-unheard");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(unheard, "apps", 2))).andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(30)).until(() -> lifecycleEventsOnKafka() >= written + 3);
        assertThat(feed.recordsRead()).as("nobody listens: the feed fetched none of the three events").isEqualTo(read);

        SseFrames client = connect();
        String heard = guid("sse-heard");
        mvc.perform(json(post("/v1/desired_lrps"), desiredLrp(heard, "apps", 1))).andExpect(status().isCreated());
        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(client, heard).size() >= 2);
        assertThat(framesOf(client, heard)).extracting(SseFrames.Frame::event)
                .containsExactly("desired_lrp_created", "actual_lrp_created");
        assertThat(framesOf(client, unheard)).as("written before the stream opened").isEmpty();
    }

    /** How many records the lifecycle topic holds, asked of the broker itself. */
    private long lifecycleEventsOnKafka() {
        try (Consumer<?, ?> asker = consumers.createConsumer(null, "test-lifecycle-ends")) {
            List<TopicPartition> partitions = asker.partitionsFor(Topics.LIFECYCLE_EVENTS).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            return asker.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
        }
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

    @Test
    void aSlowClientIsDroppedWhileAFastOneGetsEveryEvent() throws Exception {
        SseFrames fast = connect();
        long before = fast.events.size();
        // The clients of the earlier tests of this class may still be connected: count them, not just two.
        int others = stream.clientCount();
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new java.net.InetSocketAddress("localhost", port));
            OutputStream out = slow.getOutputStream();
            out.write(("GET /v1/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + AUTHORIZATION
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> stream.clientCount() > others);
            int clients = others + 1;
            String payload = "{\"pad\": \"" + "x".repeat(2000) + "\"}";
            int published = 0;
            while (stream.clientCount() >= clients && published < 100_000) {
                for (int i = 0; i < 500; i++) {
                    stream.publish("test_event", payload);
                }
                published += 500;
                long expected = before + published;
                await().atMost(Duration.ofSeconds(30)).until(() -> fast.events.size() >= expected);
            }
            assertThat(stream.clientCount()).as("the slow client is dropped, the others stay").isEqualTo(others);
            assertThat(fast.events.size()).isEqualTo(before + published);
            InputStream ignored = slow.getInputStream();
            assertThat(ignored).isNotNull();
        }
    }

    private SseFrames connect() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(feed::isReady);
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
        return client.events.stream().filter(f -> f.data().contains("\"" + guid + "\"")).toList();
    }
}
