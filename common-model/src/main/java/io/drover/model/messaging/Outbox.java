package io.drover.model.messaging;

import static io.drover.model.jdbc.SqlArrays.bytes;
import static io.drover.model.jdbc.SqlArrays.strings;

import io.drover.model.time.IsoInstants;
import java.sql.PreparedStatement;
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

    /** One statement for a transaction's messages, in the order given (see {@link AuditLog}). */
    private static final String INSERT = """
            INSERT INTO outbox (created_at, topic, message_key, message_type, payload)
            SELECT ?::timestamptz, m.* FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::bytea[]) AS m""";

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
        String now = IsoInstants.format(clock.instant());
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(INSERT);
            ps.setString(1, now);
            ps.setArray(2, strings(con, messages, OutboxMessage::topic));
            ps.setArray(3, strings(con, messages, OutboxMessage::key));
            ps.setArray(4, strings(con, messages, OutboxMessage::type));
            ps.setArray(5, bytes(con, messages, OutboxMessage::payload));
            return ps;
        });
        wakeRelayAfterCommit();
    }

    /**
     * Wakes this JVM's relay once the current transaction commits (for rows written into any relayed table): once per
     * transaction however many tables it wrote, as the transaction's synchronizations are a set and these are equal.
     */
    public void wakeRelayAfterCommit() {
        requireTransaction();
        TransactionSynchronizationManager.registerSynchronization(new WakeRelay(signal));
    }

    private record WakeRelay(OutboxSignal signal) implements TransactionSynchronization {
        @Override
        public void afterCommit() {
            signal.wakeUp();
        }
    }

    private static void requireTransaction() {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("outbox messages must be written in the transaction of the change");
        }
    }
}
