package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.pass.FreezingPassHook;
import io.drover.converger.plan.Plan;
import io.drover.model.leader.LeaderElection;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC 12 / issue 9, the converger killed between reading its snapshot and applying its plan: a leader frozen right
 * after planning loses its lock, the standby takes over and converges a world that has moved on, then the old leader
 * wakes up and applies its stale plan. Its writes are fenced by the leader lock, so it changes nothing: no instance
 * is created twice, and the cluster stays exactly as desired.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConvergerFailoverIT {

    private static final String CONVERGER = "converger-service";

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private ClusterInvariants invariants;

    @BeforeAll
    void startCluster() {
        ClusterUnderTest started = ClusterUnderTest.start(
                new LocalClusterSettings(dataDir, true, 0, 0, 3, "failover", "failover-secret",
                        LocalClusterEndToEndIT.EndToEndSettings.FAST));
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
    void aLeaderThatLostItsLockBetweenSnapshotAndPlanAppliesNothingOfItsStalePlan() throws Exception {
        // The cluster's converger makes way for two: a leader that can be frozen, then a standby.
        cluster.service(CONVERGER).close();
        FreezingPassHook hook = new FreezingPassHook();
        ConfigurableApplicationContext leader = cluster.startService(CONVERGER, Map.of(), hook.asBean());
        await().atMost(Duration.ofSeconds(15)).until(() -> isLeader(leader));
        // The standby converges on election and on desired changes; its interval pass would hide a stale write.
        ConfigurableApplicationContext standby = cluster.startService(CONVERGER,
                Map.of("drover.converger.interval", "5m"));
        assertThat(isLeader(standby)).isFalse();

        String guid = "failover";
        assertThat(api.desire(Api.lrp(guid, 3, 64, "preloaded:host", "sleep", "1000"))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(() -> api.running(guid).size() == 3);

        // Index 2 is restarted: the leader's next pass sees it missing and plans to create it, then freezes.
        hook.freezeNextPassThat(plan -> plan.missing().stream()
                .anyMatch(m -> m.processGuid().equals(guid) && m.indices().contains(2)));
        assertThat(api.call("DELETE", "/v1/actual_lrps/" + guid + "/index/2", null).statusCode()).isEqualTo(204);
        Plan stale = hook.awaitFrozen(Duration.ofSeconds(20));
        assertThat(stale).as("the leader froze with a plan to create index 2").isNotNull();

        // It loses its lock (as when a paused leader's lock expires); the standby takes over and converges a world
        // that moves on: index 2 is recreated, then scaled away.
        leader.getBean("convergerLeaderElection", LeaderElection.class).stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> isLeader(standby));
        await().atMost(Duration.ofSeconds(20)).until(() -> api.running(guid).size() == 3);
        assertThat(api.scale(guid, 2)).isEqualTo(204);
        await().atMost(Duration.ofSeconds(20)).until(() -> api.actuals(guid).size() == 2
                && api.running(guid).size() == 2);

        // The old leader wakes up and applies its plan, which says index 2 is missing.
        long lastEvent = lastEventId();
        double passesBefore = passes(leader);
        hook.release();
        await().atMost(Duration.ofSeconds(10)).until(() -> passes(leader) > passesBefore);
        assertThat(eventsOfIndexSince(guid, 2, lastEvent)).as("what the stale plan did to index 2").isEmpty();
        assertThat(api.actuals(guid)).as("instances after the stale plan ran (desired: 2)").hasSize(2);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(invariants.violations()).isEmpty());
        assertThat(api.running(guid)).hasSize(2);
    }

    private long lastEventId() throws SQLException {
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
             ResultSet rs = db.createStatement().executeQuery("SELECT coalesce(max(id), 0) FROM lrp_events")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The audit rows of one instance written after event {@code since}: what happened to it since. */
    private List<String> eventsOfIndexSince(String guid, int index, long since) throws SQLException {
        List<String> events = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
             PreparedStatement query = db.prepareStatement("""
                     SELECT event_type || ' ' || coalesce(from_state, '-') || '->' || coalesce(to_state, '-')
                            || ' by ' || actor_service || ': ' || coalesce(reason, '')
                     FROM lrp_events WHERE entity = 'actual' AND process_guid = ? AND instance_index = ? AND id > ?
                     ORDER BY id""")) {
            query.setString(1, guid);
            query.setInt(2, index);
            query.setLong(3, since);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    events.add(rs.getString(1));
                }
            }
        }
        return events;
    }

    private static boolean isLeader(ConfigurableApplicationContext converger) {
        return converger.getBean("convergerLeaderElection", LeaderElection.class).isLeader();
    }

    /** Passes run, whether applied or abandoned. */
    private static double passes(ConfigurableApplicationContext converger) {
        return converger.getBean(MeterRegistry.class).find("drover.convergence.passes").counters().stream()
                .mapToDouble(Counter::count).sum();
    }
}
