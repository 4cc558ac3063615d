package io.drover.model.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.test.MutableClock;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.Instant;
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

/** Retention of the relayed tables on real PostgreSQL: what the garbage collection may delete, and in what order. */
@SpringBootTest
@WithDroverInfrastructure
class RelayedRowsIT {

    static final Actor TEST = Actor.service("test");

    @Autowired
    RelayedRows relayed;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    OutboxRelay relay;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    DataSource dataSource;
    @Autowired
    MutableClock clock;
    @Autowired
    Outbox outbox;

    /**
     * A resumed event stream needs every event after the one it resumes from: the rows of a short transaction written
     * while a long one was open come after the long one's rows in stream order, so they stay as long as those do,
     * however old they are.
     */
    @Test
    void auditRowsGoAsAPrefixOfTheStreamOrderNeverFromBehindAYoungerRow() throws Exception {
        Instant old = clock.instant();
        String first = "first-" + UUID.randomUUID();
        String longOne = "long-" + UUID.randomUUID();
        String behind = "behind-" + UUID.randomUUID();
        desired.desire(definition(first), TEST);
        CountDownLatch xidTaken = new CountDownLatch(1);
        CountDownLatch write = new CountDownLatch(1);
        TransactionTemplate outer = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        CompletableFuture<Void> longTransaction = CompletableFuture.runAsync(() -> outer.executeWithoutResult(s -> {
            jdbc.queryForObject("SELECT pg_current_xact_id()::text", String.class);
            xidTaken.countDown();
            awaitLatch(write);
            lateEvent(longOne);
        }));
        assertThat(xidTaken.await(30, TimeUnit.SECONDS)).isTrue();
        desired.desire(definition(behind), TEST); // written at `old`, after the long transaction's id in stream order
        clock.advance(Duration.ofMinutes(20)); // not more: a broker refuses records stamped over an hour ahead
        write.countDown(); // the long transaction writes twenty minutes later
        longTransaction.get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(10)).until(() -> relay.backlog() == 0);

        Instant cutoff = old.plus(Duration.ofMinutes(10));
        while (relayed.deleteEventsBefore(cutoff, 1_000) > 0) {
            // everything that may go
        }

        assertThat(count(first)).as("old, and before every younger row").isZero();
        assertThat(count(longOne)).as("within the retention").isEqualTo(1);
        assertThat(count(behind)).as("old, but after a row within the retention").isEqualTo(2);

        while (relayed.deleteEventsBefore(clock.instant().plusSeconds(1), 1_000) > 0) {
            // once the younger row is old too, both go
        }
        assertThat(count(longOne) + count(behind)).isZero();
    }

    private int count(String guid) {
        return jdbc.queryForObject("SELECT count(*) FROM lrp_events WHERE process_guid = ?", Integer.class, guid);
    }

    private static DesiredLrpDefinition definition(String guid) {
        return new DesiredLrpDefinition(guid, "retention", "preloaded:host", 1,
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
