package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.agent.CellAgents;
import io.drover.rep.evacuation.Evacuator;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 8.5, zero downtime: web servers on two process cells, one cell drained while a client keeps calling every
 * address the API lists. No call fails, the API never lists fewer serving instances than desired, the draining ones
 * are listed with {@code evacuating: true}, and afterwards every instance runs on the other cell.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DrainIT {

    private static final int INSTANCES = 2;

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    void startCluster() {
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.rep.timing.evacuating-sync-interval", "1s");
        ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, 0, 2, 0, "drain",
                "drain-secret", settings));
        cluster = started.cluster();
        api = started.api();
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aDrainedCellsInstancesKeepAnsweringUntilTheirReplacementsDoElsewhere() {
        String guid = "drain-" + UUID.randomUUID().toString().substring(0, 8);
        // RUNNING means serving: an HTTP check gates it, as a router would want of every instance it lists.
        String lrp = Api.lrp(guid, INSTANCES, 64, "preloaded:host", "sh", "-c",
                "exec python3 -m http.server --bind 127.0.0.1 \"$PORT\"");
        assertThat(api.desire(lrp.substring(0, lrp.lastIndexOf('}')) + ", \"check_definition\": {\"checks\": "
                + "[{\"http_check\": {\"port\": 8080, \"path\": \"/\", \"request_timeout_ms\": 1000}}]}}"))
                .isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).until(() -> serving(guid).size() == INSTANCES
                && serving(guid).stream().allMatch(url -> status(url) == 200));
        String victim = api.running(guid).get(0).path("cell_id").asString();

        Evacuator.Draining drain = agentsOf(victim).evacuate(victim).orElseThrow();

        List<String> failures = new ArrayList<>();
        boolean sawEvacuating = false;
        int calls = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!(drain.done().isDone() && allMovedOff(guid, victim)) && System.nanoTime() < deadline) {
            List<JsonNode> listed = api.actuals(guid);
            sawEvacuating |= listed.stream().anyMatch(a -> a.path("evacuating").asBoolean());
            List<String> urls = urls(listed);
            if (urls.size() < INSTANCES) {
                failures.add("only " + urls.size() + " serving instances listed: " + listed);
            }
            for (String url : urls) {
                calls++;
                int status = status(url);
                if (status != 200) {
                    failures.add(url + " answered " + status);
                }
            }
        }

        assertThat(failures).as("failed calls and capacity drops during the drain (of %d calls)", calls).isEmpty();
        assertThat(drain.done()).as("the drain finished").isDone();
        assertThat(sawEvacuating).as("draining instances are listed as evacuating").isTrue();
        assertThat(allMovedOff(guid, victim)).isTrue();
    }

    private boolean allMovedOff(String guid, String victim) {
        List<JsonNode> listed = api.actuals(guid);
        return listed.size() == INSTANCES && listed.stream().allMatch(a -> "RUNNING".equals(a.path("state").asString())
                && !victim.equals(a.path("cell_id").asString()) && !a.path("evacuating").asBoolean());
    }

    private List<String> serving(String guid) {
        return urls(api.actuals(guid));
    }

    /** The address of every listed instance that serves: RUNNING, evacuating or not. */
    private static List<String> urls(List<JsonNode> listed) {
        return listed.stream().filter(a -> "RUNNING".equals(a.path("state").asString()))
                .map(a -> "http://" + a.path("address").asString() + ":"
                        + a.path("ports").get(0).path("host_port").asInt() + "/")
                .toList();
    }

    private int status(String url) {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    private CellAgents agentsOf(String cellId) {
        for (ConfigurableApplicationContext rep : cluster.reps()) {
            CellAgents agents = rep.getBean(CellAgents.class);
            if (agents.agent(cellId).isPresent()) {
                return agents;
            }
        }
        throw new IllegalStateException("no rep runs " + cellId);
    }
}
