package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPEC 12's messaging faults, on one cluster of six simulated cells. First rule: with 5 % of the records every consumer polls dropped, 10 % duplicated and 10 % delivered late
 * (after the next poll's), on every topic and in every service, desiring, scaling and deleting LRPs still converges to
 * exactly the desired instances, with no duplicate or orphan container and a consistent audit trail. The converger's
 * passes are what repair the drops; its interval is 2 s here. Replay a run with {@code -Ddrover.faults.seed=N}.
 * Second: the broker stopped while LRPs are desired loses nothing (the outbox keeps the messages until it is back).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MessagingFaultsIT {

    private static final Duration CONVERGENCE_BOUND = Duration.ofSeconds(45);
    private static final Duration BROKER_DOWNTIME = Duration.ofSeconds(20);

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private ClusterInvariants invariants;

    @BeforeAll
    void startCluster() {
        System.out.println("fault-injection seed=" + FaultyConsumerInterceptor.seed
                + " (replay with -Ddrover.faults.seed=" + FaultyConsumerInterceptor.seed + ")");
        Map<String, String> properties = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        properties.put("spring.kafka.consumer.properties.interceptor.classes",
                FaultyConsumerInterceptor.class.getName());
        properties.put("drover.converger.stale-unclaimed-after", "3s");
        cluster = LocalCluster.start(new LocalClusterSettings(dataDir, true, 0, 0, 6, "faults", "faults-secret",
                properties));
        api = new Api(cluster);
        invariants = new ClusterInvariants(cluster);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.cells().size() == 6);
        // Without a fresh domain the converger must not retire orphans, and a dropped stop request would stay lost.
        assertThat(api.freshDomain("e2e")).isEqualTo(204);
    }

    @AfterAll
    void stopCluster() {
        FaultyConsumerInterceptor.set(0, 0, 0);
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void desiresAcceptedWhileTheBrokerIsDownAllRunOnceItIsBack() {
        FaultyConsumerInterceptor.set(0, 0, 0);
        cluster.stopKafka();
        List<String> guids = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                String guid = "outage-" + i;
                guids.add(guid);
                assertThat(api.desire(Api.lrp(guid, 2, 64, "preloaded:host", "sleep", "1000"))).isEqualTo(201);
            }
            assertThat(api.scale(guids.get(0), 3)).isEqualTo(204);
            assertThat(api.delete(guids.get(1))).isEqualTo(204);
            await().pollDelay(BROKER_DOWNTIME).atMost(BROKER_DOWNTIME.plusSeconds(5)).until(() -> true);
        } finally {
            cluster.startKafka();
        }
        long started = System.nanoTime();
        await().atMost(CONVERGENCE_BOUND).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(invariants.violations()).isEmpty();
            assertThat(api.running(guids.get(0))).hasSize(3);
            assertThat(api.running(guids.get(7))).hasSize(2);
        });
        System.out.println("broker-outage converged_ms=" + Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    @Test
    void desiringScalingAndDeletingUnderLostDuplicatedAndReorderedMessagesConverges() {
        FaultyConsumerInterceptor.set(0.05, 0.10, 0.10);
        Random random = new Random(FaultyConsumerInterceptor.seed);
        List<String> guids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String guid = "faulty-" + i;
            guids.add(guid);
            assertThat(api.desire(Api.lrp(guid, 1 + random.nextInt(4), 64, "preloaded:host", "sleep", "1000")))
                    .isEqualTo(201);
        }
        for (String guid : guids.subList(0, 8)) {
            assertThat(api.scale(guid, random.nextInt(6))).isEqualTo(204);
        }
        for (String guid : guids.subList(8, 12)) {
            assertThat(api.delete(guid)).isEqualTo(204);
        }
        for (String guid : guids.subList(0, 4)) {
            assertThat(api.scale(guid, 1 + random.nextInt(5))).isEqualTo(204);
        }

        long started = System.nanoTime();
        await().atMost(CONVERGENCE_BOUND).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(invariants.violations()).isEmpty());
        System.out.println("fault-injection converged_ms=" + Duration.ofNanos(System.nanoTime() - started).toMillis()
                + " seen=" + FaultyConsumerInterceptor.SEEN + " injected=" + FaultyConsumerInterceptor.INJECTED);

        assertThat(FaultyConsumerInterceptor.INJECTED).containsKeys("drop", "duplicate", "reorder");
        assertThat(FaultyConsumerInterceptor.SEEN.keySet()).anyMatch(k -> k.startsWith("drover-auctioneer"))
                .anyMatch(k -> k.startsWith("drover-converger")).anyMatch(k -> k.contains("rep"));
    }
}
