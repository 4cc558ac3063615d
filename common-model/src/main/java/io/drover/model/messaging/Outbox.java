package io.drover.model.messaging;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Writes messages into the {@code outbox} table inside the caller's transaction, so a message exists if and only if the
 * change that caused it committed. The {@link OutboxRelay} is woken after the commit.
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
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("outbox messages must be written in the transaction of the change");
        }
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.batchUpdate("INSERT INTO outbox (topic, message_key, payload, created_at) VALUES (?, ?, ?, ?)", messages,
                500, (ps, m) -> {
                    ps.setString(1, m.topic());
                    ps.setString(2, m.key());
                    ps.setString(3, m.payload());
                    ps.setTimestamp(4, now);
                });
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                signal.wakeUp();
            }
        });
    }
}
