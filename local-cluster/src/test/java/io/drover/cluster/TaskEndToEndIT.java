package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.model.json.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * Tasks end to end (SPEC 13), through the REST API only, on one local cluster of three process cells: real processes
 * run, their result comes back (cleaned when it is not text PostgreSQL can store), callbacks reach a server (and are
 * retried), a burst of a thousand callbacks reaches every good receiver while the failing ones are given up, a cancel
 * kills the process, a resubmission runs nothing twice, a lost cell fails its task and completed tasks are reaped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TaskEndToEndIT {

    @TempDir
    static Path dataDir;
    @TempDir
    static Path outside;

    private LocalCluster cluster;
    private Api api;
    private HttpServer callbacks;
    private HttpServer receivers;
    private final Map<String, Integer> delivered = new ConcurrentHashMap<>();
    private final Map<String, Integer> refused = new ConcurrentHashMap<>();
    private final List<JsonNode> called = new CopyOnWriteArrayList<>();
    private final AtomicInteger unavailable = new AtomicInteger(1);

    @BeforeAll
    void start() throws Exception {
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.converger.tasks.completed-ttl", "5s");
        settings.put("drover.converger.tasks.callback-interval", "300ms");
        // a callback budget the test can wait out: 3 attempts, 100 then 200 ms apart
        settings.put("drover.converger.tasks.callback-max-attempts", "3");
        settings.put("drover.converger.tasks.callback-first-backoff", "100ms");
        settings.put("drover.converger.tasks.callback-max-backoff", "200ms");
        // the test's callback receivers listen on loopback, which callbacks may not reach unless allowed
        settings.put("drover.receptor.tasks.callback-allowed-hosts", "*,127.0.0.1");
        // room on the three cells for the burst at once
        settings.put("drover.rep.capacity.containers", "400");
        ClusterUnderTest started = ClusterUnderTest.start(
                new LocalClusterSettings(dataDir, true, 0, 3, 0, "e2e", "e2e-secret", settings));
        cluster = started.cluster();
        api = started.api();
        callbacks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        callbacks.createContext("/done", exchange -> {
            called.add(Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(unavailable.getAndDecrement() > 0 ? 503 : 200, -1);
            exchange.close();
        });
        callbacks.start();
        receivers = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        receivers.createContext("/good", exchange -> receive(exchange, delivered, 200));
        receivers.createContext("/failing", exchange -> receive(exchange, refused, 503));
        receivers.setExecutor(Executors.newFixedThreadPool(16));
        receivers.start();
    }

    private static void receive(HttpExchange exchange, Map<String, Integer> attempts, int status) throws IOException {
        String guid = Json.tree(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                .path("task_guid").asString();
        attempts.merge(guid, 1, Integer::sum);
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    @AfterAll
    void stop() {
        if (callbacks != null) {
            callbacks.stop(0);
        }
        if (receivers != null) {
            receivers.stop(0);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void aTaskRunsARealProcessAndItsResultIsReturned() {
        String guid = guid("result");
        HttpResponse<String> submitted = submit(task(guid, "mkdir -p out && echo $((6 * 7)) > out/result.txt",
                "\"result_file\": \"out/result.txt\""));
        assertThat(submitted.statusCode()).isEqualTo(201);

        JsonNode done = awaitCompleted(guid);
        assertThat(done.path("failed").asBoolean()).isFalse();
        assertThat(done.path("result").asString()).isEqualTo("42\n");
        assertThat(done.path("cell_id").asString()).startsWith("cell-z");
    }

    @Test
    @Order(2)
    void aResultFileWithANulAndInvalidUtf8IsStoredCleanedAndTheCellsGoOnCompletingTasks() {
        String guid = guid("nul");
        assertThat(submit(task(guid, "mkdir -p out && printf 'a\\000b\\377c' > out/result.txt",
                "\"result_file\": \"out/result.txt\"")).statusCode()).isEqualTo(201);

        JsonNode done = awaitCompleted(guid);
        assertThat(done.path("failed").asBoolean()).as("a result is text: cleaned, not failed").isFalse();
        assertThat(done.path("result").asString()).isEqualTo("a\uFFFDb\uFFFDc");

        List<String> after = List.of(guid("after-nul"), guid("after-nul"), guid("after-nul"));
        after.forEach(g -> assertThat(submit(task(g, "exit 0", null)).statusCode()).isEqualTo(201));
        assertThat(after).allSatisfy(g -> assertThat(awaitCompleted(g).path("failed").asBoolean()).isFalse());
    }

    @Test
    @Order(3)
    void aCallbackReachesItsServerAndIsSentAgainAfterA503() {
        String guid = guid("callback");
        String url = "http://127.0.0.1:" + callbacks.getAddress().getPort() + "/done";
        assertThat(submit(task(guid, "exit 0", "\"completion_callback_url\": \"" + url + "\"")).statusCode())
                .isEqualTo(201);

        await().atMost(Duration.ofSeconds(60)).until(() -> called.stream()
                .filter(c -> guid.equals(c.path("task_guid").asString())).count() == 2);
        assertThat(called).filteredOn(c -> guid.equals(c.path("task_guid").asString())).allSatisfy(c -> {
            assertThat(c.path("state").asString()).isEqualTo("COMPLETED");
            assertThat(c.path("failed").asBoolean()).isFalse();
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> get(guid).statusCode() == 404);
    }

    @Test
    @Order(4)
    void cancellingARunningTaskKillsItsProcessAndItsLogShowsItsProgressEvenAfterward() {
        String guid = guid("cancel");
        String marker = "drover-task-e2e-" + guid;
        submit("""
                {"task_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "memory_mb": 32, "disk_mb": 16,
                 "action": {"emit_progress": {"start_message": "waiting to be cancelled",
                     "action": {"run": {"path": "sh", "args": ["-c", %s]}}}}}""".formatted(guid,
                Json.write("echo started; sleep 600; echo " + marker)));
        await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(state(guid)) && processes(marker) == 1);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(api.call("GET", "/v1/tasks/" + guid
                + "/logs?tail=20", null).body()).contains("[rep] waiting to be cancelled", "[stdout] started"));

        HttpResponse<String> cancelled = api.call("POST", "/v1/tasks/" + guid + "/cancel", null);

        assertThat(cancelled.statusCode()).isEqualTo(200);
        assertThat(Json.tree(cancelled.body()).path("failure_reason").asString()).isEqualTo("cancelled");
        await().atMost(Duration.ofSeconds(30)).until(() -> processes(marker) == 0);
        HttpResponse<String> after = api.call("GET", "/v1/tasks/" + guid + "/logs?tail=20", null);
        assertThat(after.statusCode()).as("its log outlives its process").isEqualTo(200);
        assertThat(after.body()).contains("[stdout] started");
    }

    @Test
    @Order(5)
    void theSameSubmissionTwiceRunsOnce() throws Exception {
        String guid = guid("twice");
        String marker = "drover-task-e2e-" + guid;
        Path runs = outside.resolve(guid + ".runs");
        String body = task(guid, "echo run >> " + runs + "; sleep 3; echo " + marker, null);

        assertThat(submit(body).statusCode()).isEqualTo(201);
        assertThat(submit(body).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).until(() -> processes(marker) == 1);
        assertThat(submit(body).statusCode()).as("resubmitted while it runs").isEqualTo(200);

        awaitCompleted(guid);
        assertThat(Files.readAllLines(runs)).containsExactly("run");
        assertThat(processes(marker)).isZero();
    }

    @Test
    @Order(6)
    void aBurstOfAThousandCallbacksDeliversEveryGoodOneAndGivesUpOnTheReceiversThatFail() throws Exception {
        String good = "http://127.0.0.1:" + receivers.getAddress().getPort() + "/good";
        String failing = "http://127.0.0.1:" + receivers.getAddress().getPort() + "/failing";
        List<String> goodGuids = new ArrayList<>();
        List<String> failingGuids = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            (i % 10 == 0 ? failingGuids : goodGuids).add(guid(i % 10 == 0 ? "burst-failing" : "burst-good"));
        }
        ExecutorService submitters = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> submitted = new ArrayList<>();
            goodGuids.forEach(g -> submitted.add(submitters.submit(() -> submit(burstTask(g, good)).statusCode())));
            failingGuids.forEach(g -> submitted.add(submitters.submit(() -> submit(burstTask(g, failing))
                    .statusCode())));
            for (Future<Integer> status : submitted) {
                assertThat(status.get()).isEqualTo(201);
            }
        } finally {
            submitters.shutdownNow();
        }

        Set<String> seenGivenUp = new HashSet<>();
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() -> {
            completedInDomain("burst").stream().filter(t -> "given_up".equals(t.path("callback_status").asString()))
                    .forEach(t -> seenGivenUp.add(t.path("task_guid").asString()));
            return delivered.keySet().containsAll(goodGuids) && seenGivenUp.containsAll(failingGuids);
        });
        assertThat(refused).as("each failing receiver was tried exactly the budget's 3 times")
                .containsOnlyKeys(failingGuids).allSatisfy((guid, attempts) -> assertThat(attempts).isEqualTo(3));
        assertThat(seenGivenUp).as("no good callback was given up").doesNotContainAnyElementsOf(goodGuids);
        await().atMost(Duration.ofSeconds(30)).until(() -> completedInDomain("burst").stream()
                .noneMatch(t -> goodGuids.contains(t.path("task_guid").asString())));
    }

    @Test
    @Order(7)
    void aCompletedTaskNobodyResolvesIsReaped() {
        String guid = guid("reaped");
        submit(task(guid, "exit 3", null));
        JsonNode done = awaitCompleted(guid);
        assertThat(done.path("failure_reason").asString()).isEqualTo("exited with status 3");

        await().atMost(Duration.ofSeconds(40)).until(() -> get(guid).statusCode() == 404);
    }

    /** Last: it takes a cell away for good. */
    @Test
    @Order(8)
    void aTaskOnACellThatDisappearsFails() {
        String guid = guid("stranded");
        String marker = "drover-task-e2e-" + guid;
        submit(task(guid, "sleep 600; echo " + marker, null));
        await().atMost(Duration.ofSeconds(60)).until(() -> "RUNNING".equals(state(guid)) && processes(marker) == 1);
        String cell = Json.tree(get(guid).body()).path("cell_id").asString();

        cluster.stopCell(Integer.parseInt(cell.substring("cell-z".length())) - 1);

        JsonNode failed = awaitCompleted(guid);
        assertThat(failed.path("failed").asBoolean()).isTrue();
        assertThat(failed.path("failure_reason").asString()).isEqualTo("cell disappeared before completion");
        assertThat(processes(marker)).isZero();
    }

    private HttpResponse<String> submit(String body) {
        return api.call("POST", "/v1/tasks", body);
    }

    private HttpResponse<String> get(String guid) {
        return api.call("GET", "/v1/tasks/" + guid, null);
    }

    private String state(String guid) {
        HttpResponse<String> response = get(guid);
        return response.statusCode() == 200 ? Json.tree(response.body()).path("state").asString() : "";
    }

    private JsonNode awaitCompleted(String guid) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            HttpResponse<String> response = get(guid);
            last[0] = response.statusCode() == 200 ? Json.tree(response.body()) : null;
            return last[0] != null && "COMPLETED".equals(last[0].path("state").asString());
        });
        return last[0];
    }

    /** The tasks of {@code domain} that are COMPLETED now (a delivered callback's task is gone). */
    private List<JsonNode> completedInDomain(String domain) {
        HttpResponse<String> response = api.call("GET", "/v1/tasks?domain=" + domain + "&state=COMPLETED", null);
        List<JsonNode> tasks = new ArrayList<>();
        Json.tree(response.body()).forEach(tasks::add);
        return tasks;
    }

    private static String burstTask(String guid, String callbackUrl) {
        return """
                {"task_guid": "%s", "domain": "burst", "rootfs": "preloaded:host", "memory_mb": 1, "disk_mb": 1,
                 "action": {"run": {"path": "true"}}, "completion_callback_url": "%s"}""".formatted(guid, callbackUrl);
    }

    private static String task(String guid, String script, String extra) {
        return """
                {"task_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "memory_mb": 32, "disk_mb": 16,
                 "action": {"run": {"path": "sh", "args": ["-c", %s]}}%s}""".formatted(guid, Json.write(script),
                extra == null ? "" : ", " + extra);
    }

    private static String guid(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static long processes(String marker) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(marker)).count();
    }
}
