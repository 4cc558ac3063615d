package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.auctioneer.AuctioneerApplication;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.leader.LeaderElection;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.messaging.TopicReader;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.test.TestBackend;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two auctioneers on one database: only the leader consumes and places. Then (issue 15) the leader is deposed between
 * deciding and committing: frozen right after its decision, it stops renewing its lock (as a paused leader does), the
 * standby takes the expired lock and places the instance on the cell the world now has, and the old leader wakes up
 * and commits its stale decision. Its writes are fenced by the leader lock, so it writes nothing: the instance keeps
 * the new leader's placement. The new leader goes on placing.
 */
class AuctioneerFailoverIT {

    @Test
    void onlyTheLeaderPlacesAndALeaderDeposedBetweenDecidingAndCommittingWritesNothing() throws Exception {
        TestBackend backend = TestBackend.current();
        String database = backend.postgres().createDatabase();
        String group = "failover-it-" + UUID.randomUUID();
        FreezingHook firstHook = new FreezingHook();
        FreezingHook secondHook = new FreezingHook();
        try (ConfigurableApplicationContext first = start(backend, database, group, firstHook);
             ConfigurableApplicationContext second = start(backend, database, group, secondHook)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> isLeader(first) != isLeader(second));
            ConfigurableApplicationContext old = isLeader(first) ? first : second;
            ConfigurableApplicationContext next = old == first ? second : first;
            FreezingHook hook = old == first ? firstHook : secondHook;
            assertThat(rounds(old).isRunning()).isTrue();
            assertThat(rounds(next).isRunning()).isFalse();
            CellPresence presence = next.getBean(CellPresence.class);
            JdbcTemplate jdbc = next.getBean(JdbcTemplate.class);
            presence.heartbeat(cell("before"), Duration.ofHours(1));
            String warmUp = desire(next, "warm-up", 3);
            await().atMost(Duration.ofSeconds(60)).until(() -> placedOn(jdbc, warmUp, "before") == 3);
            // a round counts its placements just after they commit
            await().atMost(Duration.ofSeconds(30)).until(() -> placements(old) == 3);
            assertThat(placements(next)).isZero();

            String guid = "failover-" + UUID.randomUUID();
            hook.freezeNextRoundThat(schedule -> schedule.placements().containsKey(ActualLrpKey.of(guid, 0)));
            desire(next, guid, 1);
            Schedule stale = hook.awaitFrozen(Duration.ofSeconds(60));
            assertThat(stale.placements()).containsEntry(ActualLrpKey.of(guid, 0), "before");

            // The world moves on while the leader is frozen: its cell goes, another comes.
            presence.remove("before");
            presence.heartbeat(cell("after"), Duration.ofHours(1));
            // The frozen leader stops renewing its lock (its election stops; stopping waits for the frozen round), the
            // lock expires and the standby takes over and places the instance where it can run now.
            CompletableFuture<Void> deposed = CompletableFuture.runAsync(() -> election(old).stop());
            await().atMost(Duration.ofSeconds(60)).until(() -> isLeader(next));
            await().atMost(Duration.ofSeconds(60)).until(() -> placedOn(jdbc, guid, "after") == 1);

            // The old leader wakes up and commits its decision ("before"); its round ends before its stop returns.
            hook.release();
            deposed.get(120, TimeUnit.SECONDS);

            assertThat(placedOn(jdbc, guid, "after")).isEqualTo(1);
            assertThat(events(jdbc, guid)).as("what happened to the instance (a placement is no change clients see)")
                    .containsExactly("actual_lrp_created: desired");
            assertThat(jdbc.queryForObject("SELECT count(*) FROM outbox WHERE topic = 'drover.auction.results' "
                    + "AND message_key = 'before' AND convert_from(payload, 'UTF8') LIKE ?", Integer.class,
                    "%" + guid + "%")).as("auction results the deposed leader sent to the cell it chose").isZero();
            assertThat(placements(old)).as("the old leader's placements").isEqualTo(3);
            String afterwards = desire(next, "afterwards", 3);
            await().atMost(Duration.ofSeconds(60)).until(() -> placedOn(jdbc, afterwards, "after") == 3
                    && placements(next) == 4);
        }
    }

    private static ConfigurableApplicationContext start(TestBackend backend, String database, String group,
            RoundHook hook) {
        // Command-line arguments, so they win over auctioneer-service.yml (default properties would not).
        return new SpringApplicationBuilder(AuctioneerApplication.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("roundHook", hook))
                .run("--spring.datasource.url=" + database,
                        "--spring.datasource.username=" + backend.postgres().username(),
                        "--spring.datasource.password=" + backend.postgres().password(),
                        "--spring.kafka.bootstrap-servers=" + backend.kafkaBootstrapServers(),
                        "--spring.datasource.hikari.maximum-pool-size=4",
                        "--server.port=0",
                        "--drover.auctioneer.leader-ttl=3s",
                        "--drover.auctioneer.group-id=" + group);
    }

    private static LeaderElection election(ConfigurableApplicationContext context) {
        return context.getBean(LeaderElection.class);
    }

    private static boolean isLeader(ConfigurableApplicationContext context) {
        return election(context).isLeader();
    }

    private static TopicReader rounds(ConfigurableApplicationContext context) {
        return context.getBean(AuctionRoundConfiguration.READER, TopicReader.class);
    }

    private static double placements(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).get("drover.auction.placements").counter().count();
    }

    private static String desire(ConfigurableApplicationContext context, String guid, int instances) {
        context.getBean(DesiredLrpLifecycle.class).desire(AuctionRoundIT.lrp(guid, instances, 128),
                Actor.service("test"));
        return guid;
    }

    private static CellRegistration cell(String id) {
        return new CellRegistration(id, "z1", id + ".local:1800", new Resources(4096, 20_000, 50),
                List.of("preloaded:host"), List.of(), List.of());
    }

    private static int placedOn(JdbcTemplate jdbc, String guid, String cell) {
        return jdbc.queryForObject("SELECT count(*) FROM actual_lrps WHERE process_guid = ? AND placed_cell_id = ?",
                Integer.class, guid, cell);
    }

    private static List<String> events(JdbcTemplate jdbc, String guid) {
        return jdbc.queryForList("SELECT event_type || coalesce(': ' || reason, '') FROM lrp_events "
                + "WHERE entity = 'actual' AND process_guid = ? ORDER BY id", String.class, guid);
    }

    /** Freezes the first round whose decision matches, until released. */
    static final class FreezingHook implements RoundHook {

        private final CountDownLatch released = new CountDownLatch(1);
        private final CompletableFuture<Schedule> frozen = new CompletableFuture<>();
        private volatile Predicate<Schedule> freezeWhen = schedule -> false;

        void freezeNextRoundThat(Predicate<Schedule> when) {
            freezeWhen = when;
        }

        Schedule awaitFrozen(Duration atMost) throws Exception {
            return frozen.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
        }

        void release() {
            released.countDown();
        }

        @Override
        public void beforeCommitting(Schedule schedule) {
            if (!frozen.isDone() && freezeWhen.test(schedule)) {
                frozen.complete(schedule);
                try {
                    released.await(5, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
