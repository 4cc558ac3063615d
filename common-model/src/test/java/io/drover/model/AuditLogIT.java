package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.Outbox;
import io.drover.test.WithDroverInfrastructure;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction's audit rows go into {@code lrp_events} as one statement over one array per column: every value comes
 * back as given (texts the array syntax would misread, nulls, arbitrary bytes), and the rows take their ids in the
 * order given, which is the order the relay publishes them in.
 */
@SpringBootTest
@WithDroverInfrastructure
class AuditLogIT {

    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    Outbox outbox;
    @Autowired
    TransactionTemplate tx;

    @Test
    void everyValueComesBackAsGivenAndTheRowsTakeTheirIdsInTheOrderGiven() {
        String guid = "audit-" + UUID.randomUUID();
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        byte[] binary = {0, 1, (byte) 0xff, (byte) 0xfe, '\\', '"', ',', '{', '}'};
        List<AuditLog.Entry> entries = List.of(
                new AuditLog.Entry("desired", guid, null, "desired_lrp_created", null, null, "desired", 0, "receptor",
                        null, first, "{\"type\":\"desired_lrp_created\"}".getBytes()),
                new AuditLog.Entry("actual", guid, 3, "actual_lrp_changed", "CLAIMED", "RUNNING",
                        "NULL", 7, "rep", "cell-a", second, binary),
                new AuditLog.Entry("actual", guid, 0, "actual_lrp_changed", "RUNNING", "RUNNING",
                        "a \"quoted\", {braced} \\ reason with NULL in it", 8, "rep", "cell,b", null, null));
        Instant at = Instant.parse("2026-12-01T16:30:00.123456Z");

        tx.executeWithoutResult(s -> new AuditLog(jdbc, outbox).append(entries, at));

        List<AuditLog.Entry> read = jdbc.query("""
                SELECT entity, process_guid, instance_index, event_type, from_state, to_state, reason, version,
                       actor_service, actor_cell_id, event_id, payload
                FROM lrp_events WHERE process_guid = ? ORDER BY id
                """, (rs, i) -> new AuditLog.Entry(rs.getString(1), rs.getString(2),
                rs.getObject(3) == null ? null : rs.getInt(3), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getString(7), rs.getLong(8), rs.getString(9), rs.getString(10), rs.getObject(11, UUID.class),
                rs.getBytes(12)), guid);
        assertThat(read).hasSize(3);
        for (int i = 0; i < entries.size(); i++) {
            AuditLog.Entry want = entries.get(i);
            AuditLog.Entry got = read.get(i);
            assertThat(got).as("row %d", i).usingRecursiveComparison().ignoringFields("payload").isEqualTo(want);
            assertThat(Arrays.equals(got.payload(), want.payload())).as("payload of row %d", i).isTrue();
        }
        assertThat(jdbc.queryForList("SELECT DISTINCT at FROM lrp_events WHERE process_guid = ?", Timestamp.class,
                guid)).extracting(Timestamp::toInstant).containsExactly(at);
    }

    /** The audit rows and the outbox rows of one transaction wake this JVM's relay once, after the commit. */
    @Test
    void aTransactionThatWritesAuditAndOutboxRowsWakesTheRelayOnce() {
        String guid = "audit-" + UUID.randomUUID();
        int added = tx.execute(s -> {
            int before = TransactionSynchronizationManager.getSynchronizations().size();
            new AuditLog(jdbc, outbox).append(List.of(new AuditLog.Entry("desired", guid, null, "desired_lrp_created",
                    null, null, "desired", 0, "receptor", null, null, null)), Instant.now());
            outbox.wakeRelayAfterCommit(); // as Outbox.append does for the transaction's messages
            outbox.wakeRelayAfterCommit();
            return TransactionSynchronizationManager.getSynchronizations().size() - before;
        });
        assertThat(added).isEqualTo(1);
    }
}
