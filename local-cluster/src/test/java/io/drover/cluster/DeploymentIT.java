package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
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
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
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
 * SPEC 14 end to end, on two process cells: six real HTTP servers answer their version; a client calls every address
 * the API lists as RUNNING, continuously, re-listing and retrying once when a call fails (as a router would), through
 * a rollout v1 to v2, a broken v3 reverted automatically, a canary paused, resumed and promoted, and a rollout whose
 * converger (the deployer's leader) is killed in the middle. No call fails and never fewer than six are listed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeploymentIT {

    private static final int INSTANCES = 6;
    private static final String SERVER = """
            import http.server, os
            V = os.environ['VERSION'].encode()
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(200); self.send_header('Content-Length', str(len(V))); self.end_headers()
                    self.wfile.write(V)
                def log_message(self, *args):
                    pass
            http.server.ThreadingHTTPServer(('127.0.0.1', int(os.environ['PORT'])), H).serve_forever()
            """;

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private final String guid = "deploy-" + UUID.randomUUID().toString().substring(0, 8);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    void startClusterAndVersionOne() {
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.deployer.interval", "300ms");
        ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, 0, 2, 0, "deploy",
                "deploy-secret", settings));
        cluster = started.cluster();
        api = started.api();
        String lrp = """
                {"process_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "instances": %d,
                 "memory_mb": 32, "disk_mb": 16, "ports": [8080], "env": [{"name": "VERSION", "value": "v1"}],
                 "action": {"run": {"path": "python3", "args": ["-c", %s]}},
                 "check_definition": {"checks": [{"http_check": {"port": 8080, "path": "/", "request_timeout_ms": 1000}}]}}
                """.formatted(guid, INSTANCES, Json.write(SERVER));
        assertThat(api.desire(lrp)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(90)).until(() -> urls(api.actuals(guid)).size() == INSTANCES);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aRolloutReplacesEveryInstanceWithNoFailedCall() {
        try (Prober prober = new Prober()) {
            JsonNode d = deploy(env("v2") + ", \"max_surge\": \"25%\", \"min_healthy_time\": 1");
            assertThat(d.path("from_version").asInt()).isEqualTo(1);
            assertThat(d.path("to_version").asInt()).isEqualTo(2);
            awaitState(d, "SUCCESSFUL");
            awaitOnly("v2", 2);
            prober.assertNoFailures();
            assertThat(prober.versions).contains("v1", "v2");
        }
    }

    @Test
    @Order(2)
    void aBrokenVersionIsRevertedAutomatically() {
        try (Prober prober = new Prober()) {
            JsonNode d = deploy("\"action\": {\"run\": {\"path\": \"sh\", \"args\": [\"-c\", \"exit 3\"]}}, "
                    + "\"min_healthy_time\": 1, \"progress_deadline\": 5");
            JsonNode failed = awaitState(d, "REVERTED");
            assertThat(failed.path("failure_reason").asString()).contains("progress deadline");
            JsonNode revert = deployments().stream().filter(x -> d.path("id").asString().equals(
                    x.path("reverts").asString())).findFirst().orElseThrow();
            assertThat(revert.path("to_version").asInt()).isEqualTo(2);
            awaitState(revert, "SUCCESSFUL");
            awaitOnly("v2", 2);
            prober.assertNoFailures();
            assertThat(prober.versions).containsExactly("v2");
        }
    }

    @Test
    @Order(3)
    void aCanaryWaitsForPromotionAndAPauseHoldsTheRollout() {
        try (Prober prober = new Prober()) {
            JsonNode d = deploy(env("v4") + ", \"canary\": 1, \"max_surge\": 2, \"min_healthy_time\": 1");
            JsonNode waiting = awaitState(d, "WAITING_FOR_PROMOTION");
            assertThat(waiting.path("counts").path("updated").asInt()).isEqualTo(1);
            assertThat(versionsListed()).containsOnly(2, 4);
            assertThat(verb(d, "pause").path("state").asString()).isEqualTo("PAUSED");
            assertThat(verb(d, "resume").path("state").asString()).isEqualTo("RUNNING");
            awaitState(d, "WAITING_FOR_PROMOTION");
            assertThat(verb(d, "promote").path("promoted").asBoolean()).isTrue();
            awaitState(d, "SUCCESSFUL");
            awaitOnly("v4", 4);
            prober.assertNoFailures();
        }
    }

    @Test
    @Order(4)
    void aRolloutResumesAfterItsConvergerIsKilled() {
        try (Prober prober = new Prober()) {
            JsonNode d = deploy(env("v5") + ", \"max_surge\": 1, \"min_healthy_time\": 2");
            await().atMost(Duration.ofSeconds(30)).until(() -> versionsListed().contains(5));
            cluster.service("converger-service").close();
            cluster.startService("converger-service", Map.of());
            awaitState(d, "SUCCESSFUL");
            awaitOnly("v5", 5);
            prober.assertNoFailures();
        }
    }

    private static String env(String version) {
        return "\"env\": [{\"name\": \"VERSION\", \"value\": \"" + version + "\"}]";
    }

    private JsonNode deploy(String fields) {
        HttpResponse<String> r = api.call("POST", "/v1/desired_lrps/" + guid + "/deployments", "{" + fields + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return Json.tree(r.body());
    }

    private JsonNode verb(JsonNode d, String verb) {
        HttpResponse<String> r = api.call("POST", "/v1/desired_lrps/" + guid + "/deployments/"
                + d.path("id").asString() + "/" + verb, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.tree(r.body());
    }

    private List<JsonNode> deployments() {
        List<JsonNode> all = new ArrayList<>();
        Json.tree(api.call("GET", "/v1/desired_lrps/" + guid + "/deployments", null).body()).forEach(all::add);
        return all;
    }

    private JsonNode awaitState(JsonNode d, String state) {
        String path = "/v1/desired_lrps/" + guid + "/deployments/" + d.path("id").asString();
        return await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Json.tree(api.call("GET", path, null).body()),
                        n -> state.equals(n.path("state").asString()));
    }

    /** Every listed instance runs {@code version} (and answers it), none else is listed. */
    private void awaitOnly(String version, int definitionVersion) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> listed = api.actuals(guid);
            return listed.size() == INSTANCES && listed.stream().allMatch(a -> "RUNNING".equals(a.path("state")
                    .asString()) && a.path("definition_version").asInt() == definitionVersion)
                    && urls(listed).stream().allMatch(url -> version.equals(get(url)));
        });
    }

    private Set<Integer> versionsListed() {
        Set<Integer> versions = new TreeSet<>();
        api.actuals(guid).forEach(a -> versions.add(a.path("definition_version").asInt()));
        return versions;
    }

    private static List<String> urls(List<JsonNode> listed) {
        return listed.stream().filter(a -> "RUNNING".equals(a.path("state").asString()))
                .map(a -> "http://" + a.path("address").asString() + ":"
                        + a.path("ports").get(0).path("host_port").asInt() + "/")
                .toList();
    }

    /** The body a server answered, or null when the call failed. */
    private String get(String url) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * A client calling every listed RUNNING address over and over on its own thread; a failed call is retried once on a
     * fresh listing (a router's retry), and counts as failed only when the address is still listed and fails again.
     */
    private final class Prober implements AutoCloseable {

        final List<String> failures = new CopyOnWriteArrayList<>();
        final Set<String> versions = new ConcurrentSkipListSet<>();
        final AtomicInteger calls = new AtomicInteger();
        private volatile boolean stop;
        private final Thread thread = new Thread(this::run, "deployment-prober");

        Prober() {
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            while (!stop) {
                List<String> urls = urls(api.actuals(guid));
                if (urls.size() < INSTANCES) {
                    failures.add("only " + urls.size() + " serving instances listed");
                }
                for (String url : urls) {
                    calls.incrementAndGet();
                    String body = get(url);
                    if (body == null && urls(api.actuals(guid)).contains(url)) {
                        body = get(url);
                        if (body == null) {
                            failures.add(url + " failed twice while listed");
                        }
                    }
                    if (body != null) {
                        versions.add(body);
                    }
                }
            }
        }

        void assertNoFailures() {
            assertThat(failures).as("failed calls and capacity drops (of %d calls)", calls.get()).isEmpty();
            assertThat(calls.get()).isPositive();
        }

        @Override
        public void close() {
            stop = true;
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
