package io.drover.auctioneer.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.auctioneer.AuctioneerApplication;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.leader.LeaderElection;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.test.TestBackend;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;

/** Two auctioneers on one database: only the leader consumes; when it stops, the standby takes over. */
class LeaderIT {

    @Test
    void onlyTheLeaderConsumesAndAStandbyTakesOverWhenItStops() {
        TestBackend backend = TestBackend.current();
        String database = backend.postgres().createDatabase();
        String group = "leader-it-" + UUID.randomUUID();
        try (ConfigurableApplicationContext first = start(backend, database, group);
             ConfigurableApplicationContext second = start(backend, database, group)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> isLeader(first) != isLeader(second));
            ConfigurableApplicationContext leader = isLeader(first) ? first : second;
            ConfigurableApplicationContext standby = leader == first ? second : first;
            assertThat(rounds(leader).isRunning()).isTrue();
            assertThat(rounds(standby).isRunning()).isFalse();

            for (String zone : List.of("z1", "z2", "z3")) {
                leader.getBean(CellPresence.class).heartbeat(new CellRegistration("cell-" + zone, zone, "10.0.0.1:1800",
                        new Resources(4096, 20_000, 50), List.of("preloaded:host"), List.of(), List.of()),
                        Duration.ofHours(1));
            }
            String before = desire(standby, "before");
            await().atMost(Duration.ofSeconds(60)).until(() -> placed(standby, before) == 3);
            assertThat(placements(leader)).isEqualTo(3);
            assertThat(placements(standby)).isZero();

            leader.close();
            await().atMost(Duration.ofSeconds(30)).until(() -> isLeader(standby) && rounds(standby).isRunning());
            String after = desire(standby, "after");
            await().atMost(Duration.ofSeconds(60)).until(() -> placed(standby, after) == 3);
            assertThat(placements(standby)).isEqualTo(3);
        }
    }

    private static ConfigurableApplicationContext start(TestBackend backend, String database, String group) {
        return new SpringApplicationBuilder(AuctioneerApplication.class).properties(
                "spring.datasource.url=" + database,
                "spring.datasource.username=" + backend.postgres().username(),
                "spring.datasource.password=" + backend.postgres().password(),
                "spring.kafka.bootstrap-servers=" + backend.kafkaBootstrapServers(),
                "spring.datasource.hikari.maximum-pool-size=4",
                "server.port=0",
                "drover.auctioneer.leader-ttl=3s",
                "drover.auctioneer.group-id=" + group).run();
    }

    private static boolean isLeader(ConfigurableApplicationContext context) {
        return context.getBean(LeaderElection.class).isLeader();
    }

    private static MessageListenerContainer rounds(ConfigurableApplicationContext context) {
        return context.getBean("auctionRoundsContainer", MessageListenerContainer.class);
    }

    private static double placements(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).get("drover.auction.placements").counter().count();
    }

    private static String desire(ConfigurableApplicationContext context, String name) {
        String guid = name + "-" + UUID.randomUUID();
        context.getBean(DesiredLrpLifecycle.class).desire(new DesiredLrpDefinition(guid, "it", "preloaded:host", 3,
                new Action(new RunAction("sleep", List.of("1000"), null, null, null)), null, null, 0, null, List.of(),
                128, 128, 0, 0, List.of(), null, null, null, null), Actor.service("test"));
        return guid;
    }

    private static int placed(ConfigurableApplicationContext context, String guid) {
        return context.getBean(JdbcTemplate.class).queryForObject(
                "SELECT count(*) FROM actual_lrps WHERE process_guid = ? AND placed_cell_id IS NOT NULL", Integer.class,
                guid);
    }
}
