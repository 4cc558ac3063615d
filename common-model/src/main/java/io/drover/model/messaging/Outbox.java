package io.drover.model.messaging;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes messages into the {@code outbox} table inside the caller's transaction, so a message exists if and only if the
 * change that caused it committed. The {@link OutboxRelay} of this JVM is woken right after the commit; the relays of
 * other JVMs hear of it through PostgreSQL ({@code NOTIFY drover_relay}, sent by a trigger at commit).
 */
public class Outbox {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private final OutboxSignal signal;

    public Outbox(JdbcTemplate jdbc, Clock clock, OutboxSignal signal) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.signal = signal;
    }

    /** Appends the messages in the current transaction; there must be one. */
    public void append(List<OutboxMessage> messages) {
        if (messages.isEmpty()) {
            return;
        }
        requireTransaction();
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.batchUpdate("INSERT INTO outbox (topic, message_key, payload, created_at) VALUES (?, ?, ?, ?)", messages,
                1000, (ps, m) -> {
                    ps.setString(1, m.topic());
                    ps.setString(2, m.key());
                    ps.setBytes(3, m.payload());
                    ps.setTimestamp(4, now);
                });
        wakeRelayAfterCommit();
    }

    /** Wakes this JVM's relay once the current transaction commits (for rows written into any relayed table). */
    public void wakeRelayAfterCommit() {
        requireTransaction();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                signal.wakeUp();
            }
        });
    }

    private static void requireTransaction() {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("outbox messages must be written in the transaction of the change");
        }
    }
}
