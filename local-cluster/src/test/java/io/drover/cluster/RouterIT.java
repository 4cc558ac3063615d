package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.evacuation.Evacuator;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 16 end to end, on three process cells: real HTTP servers that answer their version and instance, reached only
 * through the router by {@code Host}. Four clients that never retry call the route through a rolling update, a
 * scale-down, a restart of one index, a crash of one instance and a drain: no request fails, and only the new version
 * answers at the end. An unknown host is a 404, a
 * route without instances a 502, a route taken off the LRP disappears. The cases share one cluster, in order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RouterIT {

    private static final String SERVER = """
            import base64, hashlib, http.server, os, time
            V, I, G = os.environ['VERSION'], os.environ['INSTANCE_INDEX'], os.environ['INSTANCE_GUID']
            class H(http.server.BaseHTTPRequestHandler):
                protocol_version = 'HTTP/1.1'
                def do_GET(self):
                    if self.path == '/crash':
                        os._exit(3)
                    if self.path == '/ws':
                        key = self.headers['Sec-WebSocket-Key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
                        self.send_response(101); self.send_header('Upgrade', 'websocket')
                        self.send_header('Connection', 'Upgrade')
                        self.send_header('Sec-WebSocket-Accept', base64.b64encode(hashlib.sha1(key.encode()).digest()).decode())
                        self.end_headers(); self.wfile.flush()
                        n = self.rfile.read(2)[1] & 127
                        mask = self.rfile.read(4)
                        text = bytes(c ^ mask[i % 4] for i, c in enumerate(self.rfile.read(n))).decode()
                        reply = ('echo %s from %s' % (text, I)).encode()
                        self.wfile.write(bytes([0x81, len(reply)]) + reply); self.wfile.flush()
                        self.rfile.read(2)  # the client's close frame: the client closes, never the server first
                        self.close_connection = True
                        return
                    if self.path == '/stream':
                        self.send_response(200); self.send_header('Transfer-Encoding', 'chunked'); self.end_headers()
                        for i in range(3):
                            c = ('part%d\\n' % i).encode()
                            self.wfile.write(b'%x\\r\\n%s\\r\\n' % (len(c), c)); self.wfile.flush(); time.sleep(0.2)
                        self.wfile.write(b'0\\r\\n\\r\\n'); return
                    h = self.headers
                    b = ('%s|%s|%s|%s' % (h['Host'], h['X-Forwarded-For'], h['X-Forwarded-Proto'],
                        h['X-Forwarded-Host']) if self.path == '/headers' else '%s %s %s' % (V, I, G)).encode()
                    self.send_response(200); self.send_header('Content-Length', str(len(b))); self.end_headers()
                    self.wfile.write(b)
                def do_POST(self):
                    self.rfile.read(int(self.headers['Content-Length'])); time.sleep(0.1)
                    b = ('%s %s %s' % (V, I, G)).encode()
                    self.send_response(200); self.send_header('Content-Length', str(len(b))); self.end_headers()
                    self.wfile.write(b)
                def log_message(self, *args):
                    pass
            http.server.ThreadingHTTPServer(('127.0.0.1', int(os.environ['PORT'])), H).serve_forever()
            """;

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private final String guid = "routed-" + UUID.randomUUID().toString().substring(0, 8);
    private final String host = guid + ".apps.example.com";

    @BeforeAll
    void startClusterAndAWebApp() {
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.deployer.interval", "300ms");
        settings.put("drover.rep.timing.evacuating-sync-interval", "1s");
        ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, 0, 3, 0, "router",
                "router-secret", settings));
        cluster = started.cluster();
        api = started.api();
        String lrp = """
                {"process_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "instances": 3,
                 "memory_mb": 32, "disk_mb": 16, "ports": [8080], "env": [{"name": "VERSION", "value": "v1"}],
                 "routes": {"cf-router": [{"hostnames": ["%s"], "port": 8080}], "other": {"kept": true}},
                 "action": {"run": {"path": "python3", "args": ["-c", %s]}},
                 "check_definition": {"checks": [{"http_check": {"port": 8080, "path": "/", "request_timeout_ms": 1000}}]}}
                """.formatted(guid, host, Json.write(SERVER));
        assertThat(api.desire(lrp)).isEqualTo(201);
        await().atMost(Duration.ofSeconds(90)).until(() -> answeringInstances().size() == 3);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void requestsByHostReachEveryRunningInstanceWithTheForwardedHeadersStreamsAndWebSockets() {
        Set<String> running = new HashSet<>();
        api.running(guid).forEach(a -> running.add(a.path("instance_guid").asString()));
        assertThat(running).hasSize(3);
        await().atMost(Duration.ofSeconds(10)).until(() -> answeringInstances().equals(running));

        String port = cluster.routerUrl().substring(cluster.routerUrl().lastIndexOf(':'));
        HostCalls.Answer headers = HostCalls.get(cluster.routerUrl(), host.toUpperCase() + port, "/headers");
        assertThat(headers.body()).as("Host kept, the port ignored for routing")
                .isEqualTo(host.toUpperCase() + port + "|127.0.0.1|http|" + host.toUpperCase() + port);
        assertThat(HostCalls.get(cluster.routerUrl(), host, "/stream").body()).as("a streamed response")
                .isEqualTo("part0\npart1\npart2\n");
        String echoed = reactor.netty.http.client.HttpClient.create().headers(h -> h.set("Host", host)).websocket()
                .uri(cluster.routerUrl() + "/ws").handle((in, out) -> out.sendString(reactor.core.publisher.Mono.just(
                        "hello")).then().thenMany(in.receive().asString().take(1)))
                .blockLast(Duration.ofSeconds(15));
        assertThat(echoed).as("a WebSocket through the router").startsWith("echo hello from ");

        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int exit = io.drover.cli.Drover.run(new String[] { "routes", "-o", "json" }, Map.of("DROVER_URL",
                cluster.receptorUrl(), "DROVER_USER", "router", "DROVER_PASSWORD", "router-secret"), dataDir,
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8), System.err, false);
        assertThat(exit).isZero();
        JsonNode route = Json.tree(out.toString(java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> l
                .contains(host)).findFirst().orElseThrow());
        assertThat(route.path("process_guid").asString()).as("drover routes").isEqualTo(guid);
        assertThat(route.path("instances").size()).isEqualTo(3);
    }

    @Test
    @Order(2)
    void anUnknownHostIsA404AndARouteWithoutInstancesA502NamingIt() {
        HostCalls.Answer unknown = HostCalls.get(cluster.routerUrl(), "nobody.example.com", "/");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body()).contains("no route for host nobody.example.com");

        String empty = "empty-" + UUID.randomUUID().toString().substring(0, 8);
        String lrp = Api.lrp(empty, 0, 32, "preloaded:host", "sleep", "1000");
        assertThat(api.desire(lrp.substring(0, lrp.lastIndexOf('}')) + ", \"routes\": {\"cf-router\": [{\"hostnames\": "
                + "[\"" + empty + ".example.com\"], \"port\": 8080}]}}")).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).until(() -> HostCalls.get(cluster.routerUrl(), empty + ".example.com",
                "/").status() == 502);
        assertThat(HostCalls.get(cluster.routerUrl(), empty + ".example.com", "/").body())
                .contains("route " + empty + ".example.com has no running instance");
    }

    /**
     * A second router that cannot reach Kafka at all misses every event: it still follows the database, by its
     * fingerprint check, a few seconds late. Two routers share nothing but the database (and Kafka).
     */
    @Test
    @Order(3)
    void aRouterThatMissesEveryEventStillFollowsTheDatabaseByFingerprint() {
        ConfigurableApplicationContext blind = cluster.startService("router-service", Map.of(
                "spring.kafka.bootstrap-servers", "127.0.0.1:1", "spring.kafka.admin.auto-create", "false",
                "drover.router.start-wait", "1s", "drover.router.check-interval", "2s"));
        String blindUrl = "http://127.0.0.1:" + ((org.springframework.boot.web.server.context.WebServerApplicationContext)
                blind).getWebServer().getPort();
        assertThat(HostCalls.get(blindUrl, host, "/").ok()).as("its table built from the database at start").isTrue();
        String added = "b-" + host;
        assertThat(api.call("PUT", "/v1/desired_lrps/" + guid, "{\"routes\": {\"cf-router\": [{\"hostnames\": [\""
                + host + "\", \"" + added + "\"], \"port\": 8080}]}}").statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(5)).until(() -> HostCalls.get(cluster.routerUrl(), added, "/").ok());
        await().atMost(Duration.ofSeconds(30)).until(() -> HostCalls.get(blindUrl, added, "/").ok());
        // It stays up until the cluster stops: closing one Reactor Netty server in this JVM would dispose the event
        // loops the other router shares with it (Reactor Netty's global resources).
    }

    @Test
    @Order(4)
    void theRoutersMetricsCountRequestsByRouteAndStatusClass() throws Exception {
        String management = cluster.service("router-service").getEnvironment().getProperty("local.management.port");
        java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + management
                        + "/actuator/prometheus")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.body()).contains("drover_router_requests_seconds_count{route=\"" + host + "\",status=\"2xx\"}")
                .contains("drover_router_requests_seconds_bucket{route=\"" + host + "\",status=\"2xx\",le=\"0.005\"}")
                .contains("drover_router_requests_seconds_count{route=\"none\",status=\"4xx\"}")
                .contains("drover_router_routes ").contains("drover_router_table_lag_seconds")
                .as("no second timing of every request without its route").doesNotContain("http_server_requests");
        assertThat(HostCalls.get("http://127.0.0.1:" + management, "localhost", "/actuator/health").body())
                .contains("\"routeTable\"").contains("UP");
    }

    @Test
    @Order(5)
    void aRollingUpdateFailsNoRequestAndEndsOnTheNewVersion() {
        try (Clients clients = new Clients(true)) {
            HttpResponse<String> r = api.call("POST", "/v1/desired_lrps/" + guid + "/deployments",
                    "{\"env\": [{\"name\": \"VERSION\", \"value\": \"v2\"}], \"max_surge\": 1, \"min_healthy_time\": 1}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            String path = "/v1/desired_lrps/" + guid + "/deployments/" + Json.tree(r.body()).path("id").asString();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() ->
                    "SUCCESSFUL".equals(Json.tree(api.call("GET", path, null).body()).path("state").asString()));
            awaitOnlyVersion("v2", 3);
            clients.assertNoFailures();
            assertThat(clients.versions).contains("v1", "v2");
        }
    }

    @Test
    @Order(6)
    void aScaleDownFailsNoRequest() {
        try (Clients clients = new Clients(true)) {
            assertThat(api.scale(guid, 2)).isEqualTo(204);
            // the stopped instance waits out the deregistration delay and its stop: slow on a loaded machine
            await().atMost(Duration.ofSeconds(90)).until(() -> api.actuals(guid).size() == 2
                    && answeringInstances().size() == 2);
            clients.assertNoFailures();
        }
    }

    @Test
    @Order(7)
    void aRestartOfOneIndexFailsNoRequest() {
        JsonNode restarted = api.running(guid).get(0);
        try (Clients clients = new Clients(true)) {
            assertThat(api.call("DELETE", "/v1/actual_lrps/" + guid + "/index/" + restarted.path("index").asInt(), null)
                    .statusCode()).isEqualTo(204);
            await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 2 && api.running(guid)
                    .stream().noneMatch(a -> a.path("instance_guid").equals(restarted.path("instance_guid")))
                    && answeringInstances().size() == 2);
            clients.assertNoFailures();
        }
    }

    /**
     * A crash fails what was in flight on the instance: a GET is sent again elsewhere unless the instance's response
     * had begun, and then its client gets a 502 that says so (docs/router.md); at most one such per client.
     */
    @Test
    @Order(8)
    void aCrashOfOneInstanceFailsNoGetWhileTheOthersServe() {
        JsonNode crashing = api.running(guid).get(0);
        try (Clients clients = new Clients(false)) {
            String url = "http://" + crashing.path("address").asString() + ":"
                    + crashing.path("ports").get(0).path("host_port").asInt();
            assertThat(HostCalls.get(url, host, "/crash").ok()).as("the instance exits mid-request").isFalse();
            await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 2 && api.running(guid)
                    .stream().noneMatch(a -> a.path("instance_guid").equals(crashing.path("instance_guid")))
                    && answeringInstances().size() == 2);
            clients.assertNoFailuresBut("the instance closed the connection during its response", 4);
        }
    }

    @Test
    @Order(9)
    void aDrainFailsNoRequest() {
        String victim = api.running(guid).get(0).path("cell_id").asString();
        try (Clients clients = new Clients(true)) {
            Evacuator.Draining drain = agentsOf(victim).evacuate(victim).orElseThrow();
            await().atMost(Duration.ofSeconds(90)).until(() -> drain.done().isDone()
                    && api.running(guid).size() == 2 && api.actuals(guid).stream().noneMatch(a ->
                            victim.equals(a.path("cell_id").asString())));
            awaitOnlyVersion("v2", 2);
            clients.assertNoFailures();
        }
    }

    @Test
    @Order(10)
    void aRouteTakenOffTheLrpDisappears() {
        assertThat(api.call("PUT", "/v1/desired_lrps/" + guid, "{\"routes\": {\"other\": {\"kept\": true}}}")
                .statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(10)).until(() -> HostCalls.get(cluster.routerUrl(), host, "/").status()
                == 404);
    }

    /** The instance guids that answered 60 requests through the router. */
    private Set<String> answeringInstances() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 60; i++) {
            HostCalls.Answer answer = HostCalls.get(cluster.routerUrl(), host, "/");
            if (answer.ok()) {
                seen.add(answer.body().split(" ")[2]);
            }
        }
        return seen;
    }

    /** Every request answers {@code version}, from {@code instances} instances. */
    private void awaitOnlyVersion(String version, int instances) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Set<String> versions = new HashSet<>();
            Set<String> guids = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                HostCalls.Answer answer = HostCalls.get(cluster.routerUrl(), host, "/");
                versions.add(answer.ok() ? answer.body().split(" ")[0] : answer.toString());
                guids.add(answer.ok() ? answer.body().split(" ")[2] : "");
            }
            return versions.equals(Set.of(version)) && guids.size() == instances;
        });
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

    /**
     * Four clients calling the route through the router over and over, never retrying; every failure is kept. Two GET,
     * two POST a body to a handler that takes 100 ms: the router may send a GET again after a reset, never a POST.
     */
    private final class Clients implements AutoCloseable {

        final List<String> failures = new CopyOnWriteArrayList<>();
        final Set<String> versions = new ConcurrentSkipListSet<>();
        final AtomicInteger calls = new AtomicInteger();
        private volatile boolean stop;
        private final List<Thread> threads = new ArrayList<>();

        Clients(boolean posting) {
            for (int i = 0; i < 4; i++) {
                boolean post = posting && i % 2 == 1;
                Thread thread = new Thread(() -> run(post), "router-client-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
        }

        private void run(boolean post) {
            while (!stop) {
                calls.incrementAndGet();
                HostCalls.Answer answer = post ? HostCalls.call(cluster.routerUrl(), "POST", host, "/work",
                        "work") : HostCalls.get(cluster.routerUrl(), host, "/");
                if (answer.ok()) {
                    versions.add(answer.body().split(" ")[0]);
                } else {
                    failures.add(answer.toString());
                }
            }
        }

        /** No failure but at most {@code most} answers that say {@code allowed}. */
        void assertNoFailuresBut(String allowed, int most) {
            stop();
            List<String> others = failures.stream().filter(f -> !(f.startsWith("502") && f.contains(allowed)))
                    .toList();
            assertThat(others).as("failed requests (of %d)", calls.get()).isEmpty();
            assertThat(failures.size()).as("requests in flight on the instance: %s", failures).isLessThanOrEqualTo(most);
            assertThat(calls.get()).isGreaterThan(100);
        }

        void assertNoFailures() {
            stop();
            assertThat(failures).as("failed requests (of %d)", calls.get()).isEmpty();
            assertThat(calls.get()).isGreaterThan(100);
        }

        private void stop() {
            stop = true;
            threads.forEach(t -> {
                try {
                    t.join(15_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        @Override
        public void close() {
            stop = true;
        }
    }
}
