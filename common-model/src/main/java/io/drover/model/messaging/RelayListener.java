package io.drover.model.messaging;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hears {@code NOTIFY drover_relay} (sent by a trigger when a transaction that wrote outbox or event rows commits, in
 * any JVM) on a connection of its own and wakes the relay. Runs only while its relay is the active one, so a cluster
 * of many services has one listening connection, not one per service. A lost connection is re-opened after a pause;
 * the relay's own poll covers what was missed meanwhile.
 */
final class RelayListener implements AutoCloseable {

    static final String CHANNEL = "drover_relay";
    private static final Logger log = LoggerFactory.getLogger(RelayListener.class);
    /** How long one wait for notifications lasts; bounds how long {@link #close()} takes. */
    private static final int WAIT_MS = 1_000;

    private final DataSource dataSource;
    private final OutboxSignal signal;
    private volatile boolean running = true;
    private final Thread thread;

    RelayListener(DataSource dataSource, OutboxSignal signal) {
        this.dataSource = dataSource;
        this.signal = signal;
        this.thread = new Thread(this::loop, "outbox-relay-listener");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                signal.wakeUp(); // anything written before LISTEN took effect
                PGConnection pg = c.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(WAIT_MS);
                    if (notifications != null && notifications.length > 0) {
                        signal.wakeUp();
                    }
                }
                try (Statement s = c.createStatement()) {
                    s.execute("UNLISTEN " + CHANNEL);
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    log.debug("outbox-relay-listener-lost cause={} (reconnecting)", e.toString());
                    pause();
                }
            }
        }
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /** Stops listening within a second (the current wait ends); the connection goes back to its pool. */
    @Override
    public void close() {
        running = false;
    }
}
