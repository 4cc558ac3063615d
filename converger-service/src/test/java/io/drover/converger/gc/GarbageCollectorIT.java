package io.drover.converger.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.converger.ConvergerIntegrationTest;
import io.drover.model.domain.Domains;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.model.messaging.OutboxRelay;
import io.drover.test.MutableClock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.RunAction;
import io.drover.model.task.TaskCompletion;
import io.drover.model.task.TaskDefinition;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskStart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

@ConvergerIntegrationTest
class GarbageCollectorIT {

    @Autowired
    GarbageCollector collector;
    @Autowired
    Domains domains;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    MutableClock clock;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    OutboxRelay relay;
    @Autowired
    DataSource dataSource;
    @Autowired
    TaskLifecycle tasks;

    @Test
    void theLeaderFoldsTheKeptInstanceCountsIntoOneRowPerDomainAndState() {
        String domain = "gc-tally-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            desired.desire(new DesiredLrpDefinition("gc-tally-" + UUID.randomUUID(), domain, "preloaded:host", 4,
                    new Action(new RunAction("sleep", List.of("100"), null, List.of(), null)), null, null, 30,
                    List.of(), List.of(8080), 128, 64, 10, 5, List.of(), null, null, null, null),
                    Actor.service("test"));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(jdbc.queryForList(
                "SELECT state || '=' || n FROM instance_tallies WHERE domain = ?", String.class, domain))
                .as("three desires' rows folded into one").containsExactly("UNCLAIMED=12"));
    }

    @Test
    void forgetsTheTombstonesOfTasksDeletedLongerAgoThanTheirWindow() {
        String guid = "gc-task-" + UUID.randomUUID();
        deletedTask(guid);

        collector.collect(clock.instant().plus(Duration.ofHours(23)));
        assertThat(count("SELECT count(*) FROM task_tombstones WHERE task_guid = '" + guid + "'"))
                .as("still within its window").isEqualTo(1);
        assertThat(collector.collect(clock.instant().plus(Duration.ofHours(25))).tombstones()).isPositive();
        assertThat(count("SELECT count(*) FROM task_tombstones WHERE task_guid = '" + guid + "'")).isZero();
    }

    /** A task submitted, run on a cell, completed and deleted by its client: its tombstone is left. */
    private void deletedTask(String guid) {
        Actor test = Actor.service("test");
        UUID epoch = tasks.submit(new TaskDefinition(guid, "gc", "preloaded:host",
                new Action(new RunAction("true", List.of(), null, List.of(), null)), List.of(), 1, 1, 0, 0, List.of(),
                null, null, null, null, null), test).task().modificationTag().epoch();
        tasks.place(UUID.randomUUID(), Map.of(guid, "gc-cell"), test);
        tasks.start(Map.of(guid, new TaskStart("gc-cell", epoch)), test);
        tasks.complete(Map.of(guid, TaskCompletion.succeeded("gc-cell", "")), test);
        tasks.delete(guid, test);
    }

    @Test
    void deletesThePresenceOfCellsExpiredLongerThanTheirRetentionAndKeepsTheRest() {
        String dead = "gc-dead-" + UUID.randomUUID();
        String recent = "gc-recent-" + UUID.randomUUID();
        jdbc.update("INSERT INTO cells (cell_id, zone, address, memory_mb, disk_mb, containers, rootfs_providers, "
                + "placement_tags, optional_placement_tags, state, heartbeat_at, expires_at, version) VALUES "
                + "(?, 'z1', '10.0.0.1', 1024, 1024, 10, '[]', '[]', '[]', 'ACTIVE', ?, ?, 0), "
                + "(?, 'z1', '10.0.0.2', 1024, 1024, 10, '[]', '[]', '[]', 'ACTIVE', ?, ?, 0)",
                dead, java.sql.Timestamp.from(clock.instant().minus(Duration.ofHours(2))),
                java.sql.Timestamp.from(clock.instant().minus(Duration.ofHours(1))),
                recent, java.sql.Timestamp.from(clock.instant().minus(Duration.ofMinutes(2))),
                java.sql.Timestamp.from(clock.instant().minus(Duration.ofMinutes(1))));

        assertThat(collector.collect(clock.instant()).cells()).isGreaterThanOrEqualTo(1);

        assertThat(count("SELECT count(*) FROM cells WHERE cell_id = '" + dead + "'")).isZero();
        assertThat(count("SELECT count(*) FROM cells WHERE cell_id = '" + recent + "'")).as("lost, not yet forgotten")
                .isEqualTo(1);
    }

    @Test
    void deletesExpiredDomainsEventsPastRetentionAndLongSentOutboxRowsInBatches() {
        String guid = "gc-" + UUID.randomUUID();
        domains.upsert("gc-expiring", Duration.ofMinutes(1));
        domains.upsert("gc-forever", null);
        desired.desire(new DesiredLrpDefinition(guid, "gc-forever", "preloaded:host", 12,
                new Action(new RunAction("sleep", List.of("1"), null, null, null)), null, null, 0, null, null, 64, 64,
                0, 0, null, null, null, null, null), Actor.service("test"));
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.backlog() == 0);
        assertThat(count("SELECT count(*) FROM lrp_events WHERE process_guid = '" + guid + "'")).isEqualTo(13);

        GarbageCollector.Collected today = collector.collect(clock.instant());
        assertThat(today.events()).isZero();
        assertThat(count("SELECT count(*) FROM lrp_events WHERE process_guid = '" + guid + "'")).isEqualTo(13);

        Instant eightDaysOn = clock.instant().plus(Duration.ofDays(8));
        List<Long> sentBefore = jdbc.queryForList("SELECT id FROM outbox", Long.class);
        GarbageCollector.Collected later = collector.collect(eightDaysOn);
        assertThat(later.domains()).isPositive();
        assertThat(later.events()).as("one run deletes at most 100 batches").isBetween(13, 100 * 5);
        assertThat(later.outbox()).isPositive().isLessThanOrEqualTo(100 * 5);
        for (int run = 0; run < 100 && (later.events() > 0 || later.outbox() > 0); run++) {
            later = collector.collect(eightDaysOn);
        }

        assertThat(domains.fresh()).contains("gc-forever").doesNotContain("gc-expiring");
        assertThat(jdbc.queryForList("SELECT name FROM domains", String.class)).doesNotContain("gc-expiring");
        assertThat(count("SELECT count(*) FROM lrp_events WHERE process_guid = '" + guid + "'")).isZero();
        assertThat(jdbc.queryForList("SELECT id FROM outbox", Long.class)).doesNotContainAnyElementsOf(sentBefore);
    }

    @Test
    void neverDeletesARowTheRelayHasNotPassedHoweverOld() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.backlog() == 0);
        String guid = "gc-waiting-" + UUID.randomUUID();
        try (Connection otherRelay = dataSource.getConnection()) {
            otherRelay.setAutoCommit(false);
            try (PreparedStatement lock = otherRelay.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                lock.setLong(1, OutboxRelay.RELAY_LOCK);
                lock.execute();
            }
            desired.desire(new DesiredLrpDefinition(guid, "gc-forever", "preloaded:host", 1,
                    new Action(new RunAction("sleep", List.of("1"), null, null, null)), null, null, 0, null, null, 64,
                    64, 0, 0, null, null, null, null, null), Actor.service("test"));
            Instant aMonthOn = clock.instant().plus(Duration.ofDays(30));
            for (int run = 0; run < 100 && collector.collect(aMonthOn).events() > 0; run++) {
                // drain everything that may go
            }
            assertThat(count("SELECT count(*) FROM lrp_events WHERE process_guid = '" + guid + "'"))
                    .as("audit rows still waiting for the relay").isEqualTo(2);
            assertThat(count("SELECT count(*) FROM outbox WHERE message_key = '" + guid + "'"))
                    .as("the start request still waiting for the relay").isEqualTo(1);
            otherRelay.rollback();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.backlog() == 0);
    }

    private int count(String sql) {
        return jdbc.queryForObject(sql, Integer.class);
    }
}
