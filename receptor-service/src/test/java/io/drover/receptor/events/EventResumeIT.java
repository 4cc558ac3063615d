package io.drover.receptor.events;

import static io.drover.receptor.TestApi.AUTHORIZATION;
import static io.drover.receptor.TestApi.guid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import io.drover.model.messaging.OutboxRelay;
import io.drover.model.read.LifecycleEventRows;
import io.drover.receptor.ReceptorApplication;
import io.drover.receptor.ReceptorTest;
import io.drover.receptor.TestApi;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Resuming the event stream (SPEC 18): every event's id is its place in PostgreSQL's stream order, so a client that
 * comes back with {@code Last-Event-ID} (or {@code ?after=}) gets exactly what it missed, in order, from any receptor.
 */
@ReceptorTest
class EventResumeIT {

    static final Actor TEST = Actor.service("test");

    @LocalServerPort
    int port;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    Environment environment;
    @Autowired
    EventStream stream;
    @Autowired
    OutboxRelay relay;
    @Autowired
    LifecycleEventRows rows;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    Outbox outbox;
    @Autowired
    TransactionTemplate tx;

    private final List<SseFrames> opened = new ArrayList<>();

    @AfterEach
    void hangUp() throws Exception {
        for (SseFrames client : opened) {
            client.close();
        }
    }

    @Test
    void aClientThatReconnectsWithLastEventIdGetsExactlyWhatHappenedMeanwhileThenTheLiveStream() throws Exception {
        String before = guid("resume-before");
        SseFrames first = open(port, Map.of(), "", frames -> framesOf(frames, before).size() == 3);
        desire(before, 2);
        assertThat(first.stopped(Duration.ofSeconds(30))).isTrue();
        String lastSeen = first.lastId();
        // hung up (the receptor notices at its next heartbeat, 1 s here), and what happens meanwhile is on Kafka
        await().atMost(Duration.ofSeconds(30)).until(() -> stream.clientCount() == 0);
        String meanwhile = guid("resume-meanwhile");
        desire(meanwhile, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.backlog() == 0);
        SseFrames again = open(port, Map.of("Last-Event-ID", lastSeen), "", frames -> false);
        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(again.events, meanwhile).size() == 2);
        String live = guid("resume-live");
        desire(live, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> framesOf(again.events, live).size() == 2);

        assertThat(framesOf(again.events, before)).as("nothing up to the id it came back with").isEmpty();
        assertThat(framesOf(again.events, meanwhile)).extracting(SseFrames.Frame::event)
                .containsExactly("desired_lrp_created", "actual_lrp_created");
        assertThat(again.events).extracting(SseFrames.Frame::id).isSorted().doesNotHaveDuplicates()
                .allMatch(id -> id.compareTo(lastSeen) > 0);
        assertThat(again.events.get(0).id()).isGreaterThan(lastSeen);
    }

    @Test
    void afterResumesLikeLastEventIdAndLastStartsWithTheLatestEvents() throws Exception {
        String guid = guid("resume-after");
        desire(guid, 3);
        SseFrames latest = open(port, Map.of(), "?last=4", frames -> framesOf(frames, guid).size() == 4);
        assertThat(latest.stopped(Duration.ofSeconds(30))).as("the last four events, then live").isTrue();
        List<SseFrames.Frame> four = framesOf(latest.events, guid);
        assertThat(four).extracting(SseFrames.Frame::event).containsExactly("desired_lrp_created",
                "actual_lrp_created", "actual_lrp_created", "actual_lrp_created");

        SseFrames after = open(port, Map.of(), "?after=" + four.get(1).id(), frames -> framesOf(frames, guid).size()
                == 2);
        assertThat(after.stopped(Duration.ofSeconds(30))).isTrue();
        assertThat(framesOf(after.events, guid)).containsExactly(four.get(2), four.get(3));
    }

    @Test
    void anIdTheReceptorNoLongerKeepsIsGoneAndAMalformedOneIsABadRequest() throws Exception {
        Answer gone = get(port, Map.of("Last-Event-ID", "0000000000000001-0000000000000001"), "");
        assertThat(gone.statusCode()).isEqualTo(410);
        JsonNode error = Json.tree(gone.body());
        assertThat(error.get("name").stringValue()).isEqualTo("EventsExpired");
        assertThat(error.get("message").stringValue()).contains("re-list");
        assertThat(get(port, Map.of(), "?after=0000000000000001-0000000000000001").statusCode()).isEqualTo(410);

        Answer malformed = get(port, Map.of("Last-Event-ID", "42"), "");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(Json.tree(malformed.body()).get("name").stringValue()).isEqualTo("InvalidRequest");
        assertThat(get(port, Map.of(), "?last=0").statusCode()).isEqualTo(400);
        assertThat(get(port, Map.of(), "?last=5&since_seconds=60").statusCode()).isEqualTo(400);
    }

    @Test
    void anEventOlderThanTheRetentionCannotBeResumedFromAndOneWithinItCan() throws Exception {
        EventPosition from = rows.end();
        String old = guid("resume-old");
        String recent = guid("resume-recent");
        Instant now = Instant.now();
        tx.executeWithoutResult(s -> event(old, now.minus(Duration.ofHours(25))));
        tx.executeWithoutResult(s -> event(recent, now.minus(Duration.ofHours(23))));
        await().atMost(Duration.ofSeconds(10)).until(() -> rows.after(from, 100).rows().size() >= 2);
        Map<String, String> ids = new HashMap<>();
        rows.after(from, 100).rows().forEach(r -> ids.put(r.key(), r.position().text()));

        Answer expired = get(port, Map.of("Last-Event-ID", ids.get(old)), "");
        assertThat(expired.statusCode()).isEqualTo(410);
        assertThat(Json.tree(expired.body()).get("message").stringValue()).contains("24 h");
        SseFrames resumed = open(port, Map.of("Last-Event-ID", ids.get(recent)), "", frames -> false);
        assertThat(resumed.events).isEmpty();
    }

    /** One lifecycle event written {@code at}, as the lifecycles write theirs. */
    private void event(String guid, Instant at) {
        new AuditLog(jdbc, outbox).append(List.of(new AuditLog.Entry("desired", guid, null, "desired_lrp_created",
                null, null, "test", 0, "test", null, UUID.randomUUID(), LifecycleEvent.encode(UUID.randomUUID(),
                        "desired_lrp_created", null, Map.of("process_guid", guid), at))), at);
    }

    /**
     * The test: 10,000 transitions written by four writers at once (so transactions commit out of their id
     * order), a consumer that hangs up in the middle and comes back on another receptor: each transition once.
     */
    @Test
    void aConsumerDisconnectedDuringABurstOfTenThousandTransitionsGetsEveryOneExactlyOnceFromAnotherReceptor()
            throws Exception {
        String burst = guid("burst");
        int lrps = 100;
        int instances = 99; // 100 LRPs x (1 desired + 99 actual) = 10,000 events
        int total = lrps * (1 + instances);
        try (ConfigurableApplicationContext other = anotherReceptor()) {
            int otherPort = ((WebServerApplicationContext) other).getWebServer().getPort();
            SseFrames first = open(port, Map.of(), "", frames -> framesOf(frames, burst).size() >= 1_000);
            AtomicInteger written = new AtomicInteger();
            ExecutorService writers = Executors.newFixedThreadPool(4);
            List<CompletableFuture<Void>> writing = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writing.add(CompletableFuture.runAsync(() -> {
                    for (int i = writer; i < lrps; i += 4) {
                        desire(burst + "-" + i, instances);
                        written.incrementAndGet();
                    }
                }, writers));
            }
            assertThat(first.stopped(Duration.ofSeconds(120))).as("hung up after 1,000 events of the burst").isTrue();
            String lastSeen = first.lastId();
            await().atMost(Duration.ofSeconds(120)).until(() -> written.get() >= lrps / 2);

            int seenBefore = framesOf(first.events, burst).size();
            SseFrames second = open(otherPort, Map.of("Last-Event-ID", lastSeen), "",
                    frames -> seenBefore + framesOf(frames, burst).size() >= total);
            CompletableFuture.allOf(writing.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
            writers.shutdown();
            assertThat(second.stopped(Duration.ofSeconds(120))).as("every transition arrived").isTrue();

            List<SseFrames.Frame> all = new ArrayList<>(framesOf(first.events, burst));
            all.addAll(framesOf(second.events, burst));
            assertThat(all).hasSize(total);
            assertThat(all).extracting(SseFrames.Frame::id).isSorted().doesNotHaveDuplicates();
            Map<String, Integer> times = new HashMap<>();
            for (SseFrames.Frame frame : all) {
                JsonNode data = Json.tree(frame.data());
                JsonNode lrp = data.has("desired_lrp") ? data.get("desired_lrp") : data.get("actual_lrp");
                times.merge(frame.event() + " " + lrp.get("process_guid").stringValue() + "/"
                        + (lrp.has("index") ? lrp.get("index").intValue() : -1), 1, Integer::sum);
            }
            assertThat(times).hasSize(total).allSatisfy((transition, count) -> assertThat(count).as(transition)
                    .isEqualTo(1));
        }
    }

    private ConfigurableApplicationContext anotherReceptor() {
        return new SpringApplicationBuilder(ReceptorApplication.class).run(
                "--server.port=0", "--spring.application.name=receptor-two", "--spring.main.banner-mode=off",
                "--spring.datasource.url=" + environment.getProperty("spring.datasource.url"),
                "--spring.datasource.username=" + environment.getProperty("spring.datasource.username"),
                "--spring.datasource.password=" + environment.getProperty("spring.datasource.password"),
                "--spring.kafka.bootstrap-servers=" + environment.getProperty("spring.kafka.bootstrap-servers"),
                "--drover.receptor.username=" + TestApi.USERNAME, "--drover.receptor.password=" + TestApi.PASSWORD,
                "--drover.logs.secret=" + TestApi.LOGS_SECRET);
    }

    private void desire(String guid, int instances) {
        desired.desire(new DesiredLrpDefinition(guid, "resume", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null, null, 64,
                64, 0, 0, null, null, null, null, null), TEST);
    }

    private SseFrames open(int port, Map<String, String> headers, String query, Predicate<List<SseFrames.Frame>> until)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/events"
                + query)).header("Authorization", AUTHORIZATION).header("Accept", "text/event-stream");
        headers.forEach(request::header);
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request.GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        SseFrames frames = new SseFrames(response.body(), until);
        opened.add(frames);
        await().atMost(Duration.ofSeconds(10)).until(() -> frames.comments.contains("connected"));
        return frames;
    }

    /** The answer's status, and its body unless it is a stream (which would never end). */
    private static Answer get(int port, Map<String, String> headers, String query) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/v1/events"
                + query)).header("Authorization", AUTHORIZATION).header("Accept", "text/event-stream");
        headers.forEach(request::header);
        HttpResponse<InputStream> response = HttpClient.newHttpClient().send(request.GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            return new Answer(response.statusCode(), response.statusCode() == 200 ? ""
                    : new String(body.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private record Answer(int statusCode, String body) {
    }

    private static List<SseFrames.Frame> framesOf(List<SseFrames.Frame> frames, String guidPrefix) {
        return frames.stream().filter(f -> f.data().contains("\"" + guidPrefix)).toList();
    }
}
