package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
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
 * SPEC 17 end to end, on two process cells with real processes: instances that burn CPU while a file exists (a quarter
 * of a core each on an idle machine, a few percent on one that other builds keep busy, hence a target of 1 %) and
 * idle once it is gone. Idle means one {@code sleep 5} fork every five seconds: with {@code sleep 1} a slow CI
 * machine measured 0.6 % per idle instance, and two of those (1.2 % over one) held the LRP at two for good. The reps sample them (cgroups or the /proc fallback), the converger's
 * leader scales on the figures through the API's own update. Short delays and intervals: the autoscaler ticks every
 * second, counts an instance 2 s after it runs, and scales down 10 s after the load went.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AutoscalingIT {

    private static final int SCALE_DOWN_DELAY = 10;
    /** Burns 60,000 shell iterations (some 50 ms) every 0.15 s while $BURN exists; sleeps 5 s at a time otherwise. */
    private static final String WORKLOAD = """
            while :; do
              if [ -e "$BURN" ]; then i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done; sleep 0.15; else sleep 5; fi
            done""";

    @TempDir
    static Path dataDir;
    @TempDir
    static Path flags;

    private LocalCluster cluster;
    private Api api;
    private final String growing = "grow-" + UUID.randomUUID().toString().substring(0, 8);
    private final String capped = "capped-" + UUID.randomUUID().toString().substring(0, 8);
    private final AtomicInteger cappedMost = new AtomicInteger();
    private Thread watcher;

    @BeforeAll
    void startCluster() throws IOException {
        Map<String, String> settings = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        settings.put("drover.autoscaler.interval", "1s");
        settings.put("drover.autoscaler.warmup", "2s");
        ClusterUnderTest started = ClusterUnderTest.start(new LocalClusterSettings(dataDir, true, 0, 2, 0, "scale",
                "scale-secret", settings));
        cluster = started.cluster();
        api = started.api();
        burn(growing, true);
        burn(capped, true);
        assertThat(api.desire(lrp(growing, 4))).isEqualTo(201);
        assertThat(api.desire(lrp(capped, 2))).isEqualTo(201);
        watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                Integer now = api.desiredInstances().get(capped);
                cappedMost.accumulateAndGet(now == null ? 0 : now, Math::max);
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "capped-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    @AfterAll
    void stopCluster() {
        if (watcher != null) {
            watcher.interrupt();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void anLrpWhoseInstancesBurnCpuGrowsFromOneToAtLeastThreeAndReturnsToOneAfterTheDelay() throws IOException {
        awaitOrExplain(growing, Duration.ofSeconds(120), () -> instances(growing) >= 3);
        JsonNode status = get(growing).path("autoscaling_status");
        assertThat(status.path("cpu_percent").asDouble()).as(status.toString()).isGreaterThan(1);
        assertThat(status.path("last_scale_reason").asString()).contains("cpu").contains("of target 1%");
        await().atMost(Duration.ofSeconds(60)).until(() -> api.running(growing).size() >= 3);

        burn(growing, false);
        long idleSince = System.nanoTime();
        awaitOrExplain(growing, Duration.ofSeconds(90), () -> instances(growing) == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - idleSince)).as("not before the scale-down delay")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(SCALE_DOWN_DELAY));
        assertThat(get(growing).path("autoscaling_status").path("last_scale_to").asInt()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(60)).until(() -> api.actuals(growing).size() == 1);
    }

    @Test
    @Order(2)
    void aPolicyWithAMaximumOfTwoNeverExceedsTwo() {
        awaitOrExplain(capped, Duration.ofSeconds(60), () -> instances(capped) == 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(capped).size() == 2);
        JsonNode status = get(capped).path("autoscaling_status");
        assertThat(status.path("condition").asString()).as(status.toString()).contains("held at max_instances 2");
        assertThat(cappedMost.get()).as("the most instances it ever had, watched since it was desired").isEqualTo(2);
    }

    @Test
    @Order(3)
    void removingThePolicyKeepsTheCurrentCount() throws IOException {
        assertThat(api.call("PUT", "/v1/desired_lrps/" + capped, "{\"autoscaling\": null}").statusCode())
                .isEqualTo(204);
        burn(capped, false);
        await().during(Duration.ofSeconds(SCALE_DOWN_DELAY + 5)).atMost(Duration.ofSeconds(SCALE_DOWN_DELAY + 15))
                .until(() -> instances(capped) == 2);
        assertThat(get(capped).path("autoscaling").isNull()).isTrue();
        assertThat(cappedMost.get()).isEqualTo(2);
    }

    /** Waits for {@code condition}; on a timeout says what the autoscaler and the reps last said about the LRP. */
    private void awaitOrExplain(String guid, Duration timeout, java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(timeout).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("not within " + timeout + ": " + guid + " is " + get(guid) + "; its metrics "
                    + api.metrics(guid) + "; its instances " + api.actuals(guid), e);
        }
    }

    private String lrp(String guid, int max) {
        return """
                {"process_guid": "%s", "domain": "e2e", "rootfs": "preloaded:host", "instances": 1,
                 "memory_mb": 32, "disk_mb": 16, "env": [{"name": "BURN", "value": "%s"}],
                 "action": {"run": {"path": "sh", "args": ["-c", %s]}},
                 "autoscaling": {"min_instances": 1, "max_instances": %d, "target_cpu_percent": 1,
                                 "scale_up_delay": 0, "scale_down_delay": %d}}
                """.formatted(guid, flags.resolve(guid), Json.write(WORKLOAD), max, SCALE_DOWN_DELAY);
    }

    private void burn(String guid, boolean on) throws IOException {
        Path flag = flags.resolve(guid);
        if (on) {
            Files.writeString(flag, "burn");
        } else {
            Files.deleteIfExists(flag);
        }
    }

    private JsonNode get(String guid) {
        return Json.tree(api.call("GET", "/v1/desired_lrps/" + guid, null).body());
    }

    private int instances(String guid) {
        return get(guid).path("instances").asInt();
    }
}
