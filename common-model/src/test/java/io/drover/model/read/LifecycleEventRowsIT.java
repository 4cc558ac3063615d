package io.drover.model.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.RunAction;
import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The event stream's read model on real PostgreSQL: stream order, settled rows only, where a stream starts. */
@SpringBootTest
@WithDroverInfrastructure
class LifecycleEventRowsIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    LifecycleEventRows events;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    MutableClock clock;
    @Autowired
    Outbox outbox;

    @Test
    void eventsCommittedBehindAnOlderTransactionWaitForItAndThenComeAfterItsOwn() throws Exception {
        EventPosition from = events.end();
        String late = "late-" + UUID.randomUUID();
        String early = "early-" + UUID.randomUUID();
        CountDownLatch xidTaken = new CountDownLatch(1);
        CountDownLatch write = new CountDownLatch(1);
        TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        CompletableFuture<Void> longTransaction = CompletableFuture.runAsync(() -> outer.executeWithoutResult(s -> {
            jdbc.queryForObject("SELECT pg_current_xact_id()::text", String.class);
            xidTaken.countDown();
            awaitLatch(write);
            // a lifecycle write refuses an outer transaction: its audit row, written late, committed last
            lateEvent(late);
        }));
        assertThat(xidTaken.await(30, TimeUnit.SECONDS)).isTrue();
        desired.desire(definition(early, 1), TEST);

        LifecycleEventRows.Page held = events.after(from, 1_000);
        assertThat(held.rows()).extracting(LifecycleEventRow::key).doesNotContain(early);
        assertThat(held.heldBack()).as("committed, but behind a transaction still running").isTrue();

        write.countDown();
        longTransaction.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> mine(events.after(from, 1_000).rows(), late, early).size()
                == 3);
        List<LifecycleEventRow> rows = mine(events.after(from, 1_000).rows(), late, early);
        assertThat(rows).extracting(LifecycleEventRow::key).as("the long transaction's event first: its id is older")
                .containsExactly(late, early, early);
        assertThat(rows).extracting(LifecycleEventRow::type).containsExactly("desired_lrp_created",
                "desired_lrp_created", "actual_lrp_created");
        assertThat(rows).extracting(LifecycleEventRow::position).isSorted().doesNotHaveDuplicates();
        assertThat(new String(rows.get(0).payload(), java.nio.charset.StandardCharsets.UTF_8)).contains(late);

        EventPosition second = rows.get(1).position();
        assertThat(mine(events.after(second, 1_000).rows(), late, early)).extracting(LifecycleEventRow::position)
                .containsExactly(rows.get(2).position());
        assertThat(events.after(from, 1).rows()).hasSize(1);
    }

    @Test
    void aPositionTellsWhenItsEventWasWrittenAndStreamsStartAtTheEndTheLastFewOrATime() {
        String guid = "start-" + UUID.randomUUID();
        desired.desire(definition(guid, 2), TEST);
        clock.advance(Duration.ofMinutes(1));
        desired.update(guid, new DesiredLrpUpdate(3, null, null), List.of(), TEST);
        await().atMost(Duration.ofSeconds(10)).until(() -> events.end().isAfter(EventPosition.START)
                && mine(events.after(events.beforeLast(5), 10).rows(), guid).size() == 5);
        List<LifecycleEventRow> rows = mine(events.after(events.beforeLast(5), 10).rows(), guid);

        assertThat(events.end()).isEqualTo(rows.get(4).position());
        assertThat(events.after(events.end(), 10).rows()).isEmpty();
        assertThat(events.writtenAt(rows.get(0).position())).contains(rows.get(0).at());
        assertThat(events.writtenAt(new EventPosition(rows.get(0).position().txId() + 1, rows.get(0).position().id())))
                .as("another transaction's row of that id: no such event").isEmpty();
        assertThat(mine(events.after(events.since(clock.instant()), 10).rows(), guid))
                .extracting(LifecycleEventRow::type).containsExactly("desired_lrp_changed", "actual_lrp_created");
        assertThat(mine(events.after(events.since(clock.instant().plusSeconds(1)), 10).rows(), guid)).isEmpty();
    }

    private static List<LifecycleEventRow> mine(List<LifecycleEventRow> rows, String... guids) {
        List<String> wanted = List.of(guids);
        return rows.stream().filter(r -> wanted.contains(r.key())).toList();
    }

    private static DesiredLrpDefinition definition(String guid, int instances) {
        return new DesiredLrpDefinition(guid, "events", "preloaded:host", instances,
                new Action(new RunAction("sleep", List.of("1"), null, null, null)), null, null, 0, null, null, 64, 64,
                0, 0, null, null, null, null, null);
    }

    /** One lifecycle event written in the current transaction, as the lifecycles write theirs. */
    private void lateEvent(String guid) {
        new AuditLog(jdbc, outbox).append(List.of(new AuditLog.Entry("desired", guid, null, "desired_lrp_created",
                null, null, "test", 0, "test", null, UUID.randomUUID(), LifecycleEvent.encode(UUID.randomUUID(),
                        "desired_lrp_created", null, Map.of("process_guid", guid), clock.instant()))), clock.instant());
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
