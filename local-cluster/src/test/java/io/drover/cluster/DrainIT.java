package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
import io.drover.rep.agent.CellAgents;
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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 8.5 and 18, zero downtime: web servers on two process cells, one cell drained through the API while a client
 * keeps listing the instances and calling every address the API lists. No call fails, the API never lists fewer
 * serving instances than desired, the draining ones are listed with {@code evacuating: true}; afterwards every instance
 * runs on the other cell and the drained cell stays, DRAINED and taking no new work, until it is undrained. Then the
 * drain is state, not a message: a cell drained while its rep is away is drained by the rep that comes back, and stays
 * drained through another restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
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
        // a rep restarted by the test stays present meanwhile, so that its cell can be drained while it is away
        settings.put("drover.rep.timing.presence-ttl", "15s");
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
    @Order(1)
    void aCellDrainedThroughTheApiHandsItsInstancesOverWithoutAFailedCallThenTakesNoWorkUntilUndrained() {
        String guid = "drain-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(api.desire(webServers(guid, INSTANCES))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).until(() -> serving(guid).size() == INSTANCES
                && serving(guid).stream().allMatch(url -> status(url) == 200));
        String victim = api.running(guid).get(0).path("cell_id").asString();

        HttpResponse<String> drain = api.call("POST", "/v1/cells/" + victim + "/drain", "{\"deadline\": 120}");

        assertThat(drain.statusCode()).isEqualTo(202);
        assertThat(Json.tree(drain.body()).path("state").asString()).isEqualTo("EVACUATING");
        List<String> failures = new ArrayList<>();
        boolean sawEvacuating = false;
        int calls = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!(state(victim).equals("DRAINED") && allMovedOff(guid, victim)) && System.nanoTime() < deadline) {
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
        assertThat(sawEvacuating).as("draining instances are listed as evacuating").isTrue();
        assertThat(allMovedOff(guid, victim)).isTrue();
        JsonNode drained = cell(victim);
        assertThat(drained.path("state").asString()).isEqualTo("DRAINED");
        assertThat(drained.path("drain").path("instances_left").asInt()).isZero();
        assertThat(api.cells()).as("a drained cell is live: it heartbeats")
                .anyMatch(c -> victim.equals(c.path("cell_id").asString())
                        && "DRAINED".equals(c.path("state").asString()));
        assertThat(api.scale(guid, 4)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(60)).until(() -> api.running(guid).size() == 4);
        assertThat(api.running(guid)).as("a drained cell takes no new work")
                .noneMatch(a -> victim.equals(a.path("cell_id").asString()));

        HttpResponse<String> undrain = api.call("DELETE", "/v1/cells/" + victim + "/drain", null);

        assertThat(undrain.statusCode()).isEqualTo(200);
        assertThat(Json.tree(undrain.body()).path("state").asString()).isEqualTo("ACTIVE");
        // The auctioneer may judge from a list of cells up to a second old (AuctionSnapshots.CELLS_MAX_AGE), so what
        // is desired at once may all go to the other cell: each time what was asked for runs, one more is asked for,
        // until one lands on the undrained cell.
        String more = "undrained-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(api.desire(webServers(more, 1))).isEqualTo(201);
        int[] desired = {1};
        await("an undrained cell takes work again").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    List<JsonNode> running = api.running(more);
                    if (running.stream().anyMatch(a -> victim.equals(a.path("cell_id").asString()))) {
                        return true;
                    }
                    if (running.size() == desired[0] && desired[0] < 6) {
                        assertThat(api.scale(more, ++desired[0])).isEqualTo(204);
                    }
                    return false;
                });
    }

    @Test
    @Order(2)
    void aDrainSurvivesARestartOfTheCellsRep() {
        String guid = "restart-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(api.desire(webServers(guid, INSTANCES))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).until(() -> api.running(guid).size() == INSTANCES);
        String victim = api.running(guid).get(0).path("cell_id").asString();
        int rep = repOf(victim);
        Set<String> statesSeen = ConcurrentHashMap.newKeySet();
        AtomicBoolean watching = new AtomicBoolean(true);
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                try {
                    statesSeen.add(state(victim));
                } catch (RuntimeException | AssertionError e) {
                    statesSeen.add("unreadable: " + e);
                }
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a sample every 100 ms, not a wait
            }
        }, "drain-state-watcher");

        // drained while its rep is away: only the cell's row tells the rep that comes back
        cluster.stopCell(rep);
        assertThat(api.call("POST", "/v1/cells/" + victim + "/drain", null).statusCode()).isEqualTo(202);
        watcher.start();
        cluster.startCell(rep);

        try {
            await("the restarted rep drains its cell").atMost(Duration.ofSeconds(90))
                    .until(() -> state(victim).equals("DRAINED") && allMovedOff(guid, victim));
            // and restarted once drained, it stays drained
            cluster.stopCell(rep);
            cluster.startCell(rep);
            await().atMost(Duration.ofSeconds(60)).until(() -> cluster.reps().get(rep).getBean(CellAgents.class)
                    .agent(victim).orElseThrow().isDrained());
        } finally {
            watching.set(false);
        }
        assertThat(statesSeen).as("the cell was never ACTIVE again while its rep restarted")
                .containsAnyOf("EVACUATING", "DRAINED").doesNotContain("ACTIVE");
        assertThat(state(victim)).isEqualTo("DRAINED");
        assertThat(api.scale(guid, 4)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(60)).until(() -> api.running(guid).size() == 4);
        assertThat(api.running(guid)).as("a drained cell takes no new work")
                .noneMatch(a -> victim.equals(a.path("cell_id").asString()));
        assertThat(api.call("DELETE", "/v1/cells/" + victim + "/drain", null).statusCode()).isEqualTo(200);
    }

    private static String webServers(String guid, int instances) {
        // RUNNING means serving: an HTTP check gates it, as a router would want of every instance it lists.
        String lrp = Api.lrp(guid, instances, 64, "preloaded:host", "sh", "-c",
                "exec python3 -m http.server --bind 127.0.0.1 \"$PORT\"");
        return lrp.substring(0, lrp.lastIndexOf('}')) + ", \"check_definition\": {\"checks\": "
                + "[{\"http_check\": {\"port\": 8080, \"path\": \"/\", \"request_timeout_ms\": 1000}}]}}";
    }

    private JsonNode cell(String cellId) {
        HttpResponse<String> response = api.call("GET", "/v1/cells/" + cellId, null);
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.tree(response.body());
    }

    private String state(String cellId) {
        return cell(cellId).path("state").asString();
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

    private int repOf(String cellId) {
        for (int i = 0; i < cluster.reps().size(); i++) {
            if (cluster.cellIds(i).contains(cellId)) {
                return i;
            }
        }
        throw new IllegalStateException("no rep runs " + cellId);
    }
}
