package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.drover.model.json.Json;
import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 12, PostgreSQL restarted under load: while a client keeps desiring and scaling LRPs on simulated cells, the
 * database goes away for 10 s and comes back on the same port with the same data. No service context exits and each
 * reports UP again; the receptor refuses writes it cannot store with a clean 503 (never a 500); every write it
 * accepted (2xx) is there afterwards; and the cluster converges to exactly what was desired.
 *
 * <p>SPEC 18, the control plane freezes while the database is away (docs/ha.md): an outage three times the presence
 * TTL, during which no cell can beat, and after which the reps reach the database only once the converger has judged,
 * neither re-auctions an instance nor fails a task of the cells that stayed alive all along.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatabaseRestartIT {

    private static final Duration OUTAGE = Duration.ofSeconds(10);
    private static final int LRPS = 8;
    /** Three presence TTLs of {@code EndToEndSettings.FAST} (4 s), as Patroni's 30 s failover is two of 15 s. */
    private static final Duration LONG_OUTAGE = Duration.ofSeconds(12);
    /** How long a simulated task's {@code run} takes: long enough to be RUNNING through the long outage. */
    private static final Duration TASK_RUNS = Duration.ofSeconds(40);

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private ClusterInvariants invariants;

    @BeforeAll
    void startCluster() {
        Map<String, String> properties = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        properties.put("drover.rep.simulated.task-step", TASK_RUNS.toMillis() + "ms");
        // FAST has 4 s: the reps beat again only after the converger judged (below), on a busy machine
        properties.put("drover.converger.cell-grace-on-election", "8s");
        // lets the test hold the reps' connections back (see below)
        properties.put("spring.datasource.hikari.allow-pool-suspension", "true");
        ClusterUnderTest started = ClusterUnderTest.start(
                new LocalClusterSettings(dataDir, true, 0, 0, 4, "pg", "pg-secret", properties));
        cluster = started.cluster();
        api = started.api();
        invariants = started.invariants();
        assertThat(api.freshDomain("e2e")).isEqualTo(204);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void servicesRideOutADatabaseRestartAndNoAcceptedWriteIsLost(CapturedOutput output) throws Exception {
        Load load = new Load(api);
        Thread client = new Thread(load, "pg-restart-load");
        client.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> load.accepted.size() >= LRPS);
            cluster.stopDatabase();
            int acceptedBefore = load.acceptedWrites.get();
            await().pollDelay(OUTAGE).atMost(OUTAGE.plusSeconds(5)).until(() -> true);
            cluster.startDatabase();
            int acceptedDuringOutage = load.acceptedWrites.get() - acceptedBefore;
            await().atMost(Duration.ofSeconds(20)).until(() -> load.acceptedWrites.get() > acceptedBefore + 10);
            System.out.println("pg-restart accepted_during_outage=" + acceptedDuringOutage + " answers=" + load.answers);
        } finally {
            load.running.set(false);
            client.join();
        }

        for (ConfigurableApplicationContext service : contexts()) {
            assertThat(service.isActive()).as(name(service) + " still running").isTrue();
        }
        long started = System.nanoTime();
        await().atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            for (ConfigurableApplicationContext service : contexts()) {
                assertThat(health(service)).as(name(service) + " health").isEqualTo("UP");
            }
            load.accepted.forEach((guid, instances) -> assertThat(desiredInstances(guid))
                    .as("accepted write to " + guid).isIn(instances));
            assertThat(invariants.violations()).isEmpty();
        });
        System.out.println("pg-restart converged_ms=" + Duration.ofNanos(System.nanoTime() - started).toMillis());
        assertThat(load.answers.keySet()).as("what the receptor answered").isSubsetOf(200, 201, 204, 409, 503);
        assertThat(load.answers).as("writes were refused during the outage").containsKey(503);
        assertThat(output.getAll()).doesNotContain("unhandled-error");
    }

    @Test
    void aDatabaseAwayLongerThanThePresenceTtlNeitherReauctionsNorFailsTheWorkOfLiveCells() throws Exception {
        List<String> lrps = List.of("frozen-lrp-0", "frozen-lrp-1", "frozen-lrp-2");
        for (String guid : lrps) {
            assertThat(api.desire(Api.lrp(guid, 3, 64, "preloaded:host", "sleep", "1000"))).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> lrps.stream().allMatch(g -> api.running(g).size() == 3));
        Map<String, List<String>> trail = LifecycleTrail.inDatabase(cluster, "frozen-lrp-");
        List<String> tasks = List.of("frozen-task-0", "frozen-task-1", "frozen-task-2", "frozen-task-3");
        for (String guid : tasks) {
            assertThat(api.call("POST", "/v1/tasks", longTask(guid)).statusCode()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> tasks.stream().allMatch(
                g -> "RUNNING".equals(task(g).path("state").asString())));

        repPools().forEach(HikariPoolMXBean::suspendPool);
        try {
            cluster.stopDatabase();
            await().pollDelay(LONG_OUTAGE).atMost(LONG_OUTAGE.plusSeconds(5)).until(() -> true);
            double passes = convergencePasses();
            cluster.startDatabase();
            // the reps reach the database only once the converger has judged twice: with the defaults a rep beats
            // every 5 s and the converger looks every second, and after a failover each client finds the new
            // primary in its own time
            await().atMost(Duration.ofSeconds(30)).until(() -> convergencePasses() >= passes + 2);
        } finally {
            repPools().forEach(HikariPoolMXBean::resumePool);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> api.cells().size() == 4);
        // the grace (4 s) runs out and several passes (every 2 s) judge the cells again, which beat all along
        await().during(Duration.ofSeconds(10)).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    assertThat(LifecycleTrail.inDatabase(cluster, "frozen-lrp-"))
                            .as("what happened to each instance since before the outage").isEqualTo(trail);
                    assertThat(tasks).allSatisfy(g -> assertThat(task(g).path("failed").asBoolean())
                            .as(g + " failed: " + task(g).path("failure_reason").asString()).isFalse());
                });
        await().atMost(TASK_RUNS.plusSeconds(30)).untilAsserted(() -> assertThat(tasks).allSatisfy(g -> {
            JsonNode task = task(g);
            assertThat(task.path("state").asString()).as(g).isIn("COMPLETED", "RESOLVING");
            assertThat(task.path("failed").asBoolean()).as(g + " failed: " + task.path("failure_reason").asString())
                    .isFalse();
        }));
        lrps.forEach(api::delete);
    }

    private double convergencePasses() {
        return cluster.service("converger-service").getBean(MeterRegistry.class)
                .counter("drover.convergence.passes", "result", "ok").count();
    }

    /** The reps' connection pools: suspended, every request for a connection waits until they resume. */
    private List<HikariPoolMXBean> repPools() {
        return cluster.reps().stream().map(r -> r.getBean(HikariDataSource.class).getHikariPoolMXBean()).toList();
    }

    private JsonNode task(String guid) {
        HttpResponse<String> response = api.call("GET", "/v1/tasks/" + guid, null);
        assertThat(response.statusCode()).as("GET task " + guid).isEqualTo(200);
        return Json.tree(response.body());
    }

    private static String longTask(String guid) {
        return """
                {"task_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "memory_mb": 16, "disk_mb": 16,
                 "action": {"run": {"path": "sleep", "args": ["600"]}}}""".formatted(guid);
    }

    private List<ConfigurableApplicationContext> contexts() {
        List<ConfigurableApplicationContext> all = new ArrayList<>(cluster.services());
        all.addAll(cluster.reps());
        return all;
    }

    private int desiredInstances(String guid) {
        HttpResponse<String> response = api.call("GET", "/v1/desired_lrps/" + guid, null);
        assertThat(response.statusCode()).as("GET " + guid).isEqualTo(200);
        return Json.tree(response.body()).path("instances").asInt();
    }

    private static String name(ConfigurableApplicationContext service) {
        return service.getEnvironment().getProperty("spring.application.name");
    }

    private static String health(ConfigurableApplicationContext service) throws Exception {
        // the router's server port answers requests by Host; its health is on a management port of its own
        String port = service.getEnvironment().getProperty("local.management.port",
                service.getEnvironment().getProperty("local.server.port"));
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = Json.tree(response.body());
        return body.path("status").asString();
    }

    /**
     * One client desiring {@value #LRPS} LRPs, then scaling them at random, one request after the other. Per LRP it
     * remembers the instance counts it may have now: the last accepted one, plus any refused after it (a write whose
     * answer was lost may still have been stored).
     */
    private static final class Load implements Runnable {

        final AtomicBoolean running = new AtomicBoolean(true);
        final Map<String, Set<Integer>> accepted = new ConcurrentHashMap<>();
        final Map<Integer, Integer> answers = new ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger acceptedWrites = new java.util.concurrent.atomic.AtomicInteger();
        private final List<String> desired = new CopyOnWriteArrayList<>();
        private final Map<String, Set<Integer>> possible = new HashMap<>();
        private final Api api;
        private final Random random = new Random(9);

        Load(Api api) {
            this.api = api;
        }

        @Override
        public void run() {
            int next = 0;
            while (running.get()) {
                if (desired.size() < LRPS) {
                    String guid = "pg-" + next;
                    int status = call(() -> api.desire(Api.lrp(guid, 2, 64, "preloaded:host", "sleep", "1000")));
                    if (status == 201 || status == 409) {
                        // 409: an earlier refused attempt was stored after all
                        desired.add(guid);
                        next++;
                        remember(guid, 2, true);
                    }
                } else {
                    String guid = desired.get(random.nextInt(desired.size()));
                    int instances = 1 + random.nextInt(4);
                    remember(guid, instances, call(() -> api.scale(guid, instances)) == 204);
                }
                await().pollDelay(Duration.ofMillis(100)).until(() -> true);
            }
        }

        private void remember(String guid, int instances, boolean stored) {
            Set<Integer> counts = possible.computeIfAbsent(guid, g -> new java.util.HashSet<>());
            if (stored) {
                counts.clear();
                acceptedWrites.incrementAndGet();
            }
            counts.add(instances);
            accepted.put(guid, Set.copyOf(counts));
        }

        private int call(java.util.function.IntSupplier request) {
            int status;
            try {
                status = request.getAsInt();
            } catch (IllegalStateException e) {
                status = -1; // no answer in time
            }
            answers.merge(status, 1, Integer::sum);
            return status;
        }
    }
}
