package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The whole cluster in this JVM, as the launcher starts it (embedded PostgreSQL, in-process Kafka, every service,
 * three process cells in zones z1-z3), driven only through the REST API, with real processes checked in the OS.
 * Intervals are shortened so the self-healing paths show within seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalClusterEndToEndIT {

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private int takenPort;

    @BeforeAll
    void startCluster() throws IOException {
        // The receptor is asked for a port another process holds, as a second ./drover-local finds 8080 taken.
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            takenPort = taken.getLocalPort();
            ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, takenPort, 3, 0,
                    "e2e", "e2e-secret", EndToEndSettings.FAST));
            cluster = started.cluster();
            api = started.api();
        }
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
            assertThat(TestCgroups.left()).as("cgroups left after the cluster stopped every instance").isEmpty();
        }
    }

    @Test
    void aReceptorPortThatIsTakenGivesWayToAFreeOne() {
        assertThat(URI.create(cluster.receptorUrl()).getPort()).isNotEqualTo(takenPort).isPositive();
        assertThat(api.cells()).hasSize(3);
    }

    @Test
    void threeInstancesOfAWebServerRunOnThreeCellsInThreeZonesAndAnswerHttp() {
        String guid = guid("web");
        assertThat(api.desire(Api.lrp(guid, 3, 64, "preloaded:host", "sh", "-c",
                "exec python3 -m http.server --bind 127.0.0.1 \"$PORT\""))).isEqualTo(201);

        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 3);
        List<JsonNode> running = api.running(guid);
        assertThat(running.stream().map(a -> a.path("cell_id").asString()).collect(Collectors.toSet())).hasSize(3);
        for (JsonNode instance : running) {
            String url = "http://" + instance.path("address").asString() + ":"
                    + instance.path("ports").get(0).path("host_port").asInt() + "/";
            // RUNNING once started (no check): python's start on a busy machine takes seconds
            await().atMost(Duration.ofSeconds(30)).until(() -> httpStatus(url) == 200);
        }
        api.delete(guid);
    }

    @Test
    void theMetricsOfARunningWebServerArePlausibleAndRiseUnderLoad() {
        assertThat(api.cells()).extracting(c -> c.path("isolation").asString())
                .allMatch(mode -> mode.equals("CGROUPS_V1") || mode.equals("CGROUPS_V2") || mode.equals("SAMPLING"));
        String guid = guid("metrics");
        api.desire(Api.lrp(guid, 1, 64, "preloaded:host", "sh", "-c",
                "exec python3 -m http.server --bind 127.0.0.1 \"$PORT\""));
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 1);
        JsonNode instance = api.running(guid).get(0);
        String url = "http://" + instance.path("address").asString() + ":"
                + instance.path("ports").get(0).path("host_port").asInt() + "/";
        await().atMost(Duration.ofSeconds(30)).until(() -> httpStatus(url) == 200);

        // The first sample may predate the server's start-up (the shell that execs it): wait for one taken since.
        await().atMost(Duration.ofSeconds(90)).until(() -> api.metrics(guid).size() == 1
                && api.metrics(guid).get(0).path("memory_bytes").asLong() >= 1L << 20);
        JsonNode figures = api.metrics(guid).get(0);
        assertThat(figures.path("index").asInt()).isZero();
        assertThat(figures.path("instance_guid").asString()).isEqualTo(instance.path("instance_guid").asString());
        assertThat(figures.path("memory_bytes").asLong()).isBetween(1L << 20, 64L << 20);
        assertThat(figures.path("memory_limit_bytes").asLong()).isEqualTo(64L << 20);
        assertThat(figures.path("disk_bytes").asLong()).isPositive();
        assertThat(figures.path("uptime_s").asLong()).isNotNegative();
        await().atMost(Duration.ofSeconds(30)).until(() -> cpuPercent(guid) < 5);
        try (Load load = Load.on(url)) {
            await().atMost(Duration.ofSeconds(40)).until(() -> cpuPercent(guid) > 5);
        }
        api.delete(guid);
    }

    private double cpuPercent(String guid) {
        List<JsonNode> metrics = api.metrics(guid);
        return metrics.isEmpty() ? -1 : metrics.get(0).path("cpu_percent").asDouble();
    }

    /** Two threads sending requests in a loop until closed. */
    private record Load(List<Thread> threads) implements AutoCloseable {

        static Load on(String url) {
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build();
            List<Thread> threads = List.of(new Thread(() -> hammer(http, request)),
                    new Thread(() -> hammer(http, request)));
            threads.forEach(t -> {
                t.setDaemon(true);
                t.start();
            });
            return new Load(threads);
        }

        private static void hammer(HttpClient http, HttpRequest request) {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    http.send(request, HttpResponse.BodyHandlers.discarding());
                } catch (InterruptedException e) {
                    return;
                } catch (java.io.IOException e) {
                    // busy or going away: try again
                }
            }
        }

        @Override
        public void close() {
            threads.forEach(Thread::interrupt);
        }
    }

    @Test
    void scalingStartsAndStopsRealProcesses() {
        String guid = guid("scale");
        String marker = "drover-e2e-" + guid;
        assertThat(api.desire(Api.lrp(guid, 3, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done",
                marker))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> processes(marker) == 3 && api.running(guid).size() == 3);

        assertThat(api.scale(guid, 5)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(30)).until(() -> processes(marker) == 5 && api.running(guid).size() == 5);

        assertThat(api.scale(guid, 1)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(40)).until(() -> processes(marker) == 1 && api.actuals(guid).size() == 1);

        assertThat(api.delete(guid)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(40)).until(() -> processes(marker) == 0 && api.actuals(guid).isEmpty());
    }

    @Test
    void aProcessKilledFromOutsideIsRecordedAsACrashAndRunsAgain() {
        String guid = guid("kill");
        String marker = "drover-e2e-" + guid;
        api.desire(Api.lrp(guid, 1, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done", marker));
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 1 && processes(marker) == 1);
        String firstGuid = api.running(guid).get(0).path("instance_guid").asString();

        ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(marker)).forEach(ProcessHandle::destroyForcibly);

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> running = api.running(guid);
            return running.size() == 1 && !running.get(0).path("instance_guid").asString().equals(firstGuid)
                    && running.get(0).path("crash_count").asInt() == 1;
        });
        assertThat(api.running(guid).get(0).path("crash_reason").asString()).isNotBlank();
        api.delete(guid);
    }

    @Test
    void restartingOneInstanceReplacesItsProcessWithANewIncarnation() {
        String guid = guid("restart");
        String marker = "drover-e2e-" + guid;
        api.desire(Api.lrp(guid, 2, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done", marker));
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 2);
        String before = api.running(guid).stream().filter(a -> a.path("index").asInt() == 1).findFirst().orElseThrow()
                .path("instance_guid").asString();

        assertThat(api.call("DELETE", "/v1/actual_lrps/" + guid + "/index/1", null).statusCode()).isEqualTo(204);

        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).stream()
                .anyMatch(a -> a.path("index").asInt() == 1 && !a.path("instance_guid").asString().equals(before))
                && processes(marker) == 2);
        api.delete(guid);
    }

    @Test
    void aProcessThatAlwaysExitsRestartsTwiceAtOnceThenWaitsThirtySeconds() {
        String guid = guid("crashy");
        api.desire(Api.lrp(guid, 1, 16, "preloaded:host", "sh", "-c", "exit 7"));
        await().atMost(Duration.ofSeconds(40)).until(() -> {
            List<JsonNode> actuals = api.actuals(guid);
            return actuals.size() == 1 && "CRASHED".equals(actuals.get(0).path("state").asString());
        });
        JsonNode crashed = api.actuals(guid).get(0);
        assertThat(crashed.path("crash_count").asInt()).isEqualTo(3);
        assertThat(crashed.path("crash_reason").asString()).contains("7");
        assertThat(crashed.path("next_restart_at").asLong() - crashed.path("since").asLong()).isEqualTo(30_000);
        api.delete(guid);
    }

    @Test
    void instancesOfAStoppedCellRunAgainOnTheOtherCells() {
        String guid = guid("failover");
        api.desire(Api.lrp(guid, 3, 16, "preloaded:host", "sleep", "100000"));
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 3);
        String victim = api.running(guid).get(0).path("cell_id").asString();
        int cellIndex = Integer.parseInt(victim.substring(victim.length() - 1)) - 1;

        cluster.stopCell(cellIndex);
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                List<JsonNode> running = api.running(guid);
                return running.size() == 3 && running.stream().noneMatch(a -> victim.equals(a.path("cell_id").asString()));
            });
        } finally {
            cluster.startCell(cellIndex);
        }
        api.delete(guid);
    }

    @Test
    void anLrpThatFitsNoCellStaysUnclaimedWithTheReason() {
        String big = guid("big");
        String alien = guid("alien");
        api.desire(Api.lrp(big, 1, 10_000_000, "preloaded:host", "sleep", "100"));
        api.desire(Api.lrp(alien, 1, 16, "docker:///busybox", "sleep", "100"));
        await().atMost(Duration.ofSeconds(20)).until(() -> placementError(big).equals("insufficient resources: memory")
                && placementError(alien).equals("found no compatible cell for required rootfs"));
        assertThat(api.actuals(big).get(0).path("state").asString()).isEqualTo("UNCLAIMED");
        api.delete(big);
        api.delete(alien);
    }

    private String placementError(String guid) {
        List<JsonNode> actuals = api.actuals(guid);
        return actuals.isEmpty() ? "" : actuals.get(0).path("placement_error").asString("");
    }

    private static String guid(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static long processes(String marker) {
        return ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(marker)).count();
    }

    private static String commandLine(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }

    private static int httpStatus(String url) {
        try {
            return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(HttpRequest
                    .newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    static final class EndToEndSettings {
        /** Short clocks so that presence loss, convergence and leader hand-over show within seconds. */
        static final Map<String, String> FAST = Map.ofEntries(
                Map.entry("drover.rep.timing.heartbeat-interval", "1s"),
                Map.entry("drover.rep.timing.presence-ttl", "4s"),
                Map.entry("drover.rep.timing.sync-interval", "3s"),
                Map.entry("drover.rep.timing.stop-grace", "2s"),
                // routers take an instance out when its stop is asked; a second is ample on one machine
                Map.entry("drover.rep.timing.deregistration-delay", "1s"),
                Map.entry("drover.rep.usage.interval", "1s"),
                Map.entry("drover.converger.interval", "2s"),
                Map.entry("drover.converger.desired-change-delay", "200ms"),
                Map.entry("drover.converger.cell-watch-interval", "500ms"),
                Map.entry("drover.converger.leader-ttl", "3s"),
                Map.entry("drover.converger.cell-grace-on-election", "4s"),
                Map.entry("drover.auctioneer.leader-ttl", "3s"));

        private EndToEndSettings() {
        }
    }
}
