package io.drover.model.messaging;

import javax.sql.DataSource;

/**
 * {@code NOTIFY drover_relay} for readers other than the relay: the receptor's event stream follows {@code lrp_events}
 * and is woken, like the relay, at the commit of every transaction that wrote events or commands, in any JVM.
 */
public class RelayNotifications {

    private final DataSource dataSource;

    public RelayNotifications(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Wakes {@code signal} at every such commit until closed (on a connection of its own; closes within a second). */
    public AutoCloseable listen(OutboxSignal signal) {
        return new RelayListener(dataSource, signal);
    }
}
