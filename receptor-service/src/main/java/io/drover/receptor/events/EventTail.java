package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.OutboxRelay;
import io.drover.model.messaging.OutboxSignal;
import io.drover.model.messaging.RelayNotifications;
import io.drover.model.read.LifecycleEventRows;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Follows {@code lrp_events} in stream order for the connected clients: one reader per receptor, whatever the number of
 * clients. Woken by {@code NOTIFY drover_relay} (sent at the commit of every transaction that wrote events, in any
 * JVM), it reads the settled events after its position and publishes them; while events wait behind a transaction
 * still running it looks again soon, as the relay does (that transaction's end may wake nobody). While nobody listens
 * it reads nothing and holds no connection; when somebody comes it starts at the end. Its loop also sends the
 * heartbeat comments.
 */
@Component
class EventTail implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EventTail.class);
    /** While idle, how soon a first client is noticed (it catches up from PostgreSQL meanwhile). */
    private static final Duration IDLE_LOOK = Duration.ofMillis(200);
    /** A look now and then even without a notification: one may be lost with its connection. */
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration HELD_BACK_FIRST_RETRY = Duration.ofMillis(5);

    private final LifecycleEventRows rows;
    private final EventStream stream;
    private final RelayNotifications notifications;
    private final EventsProperties properties;
    private final OutboxSignal signal = new OutboxSignal();
    private volatile boolean running;
    private volatile Thread thread;
    private volatile AutoCloseable listener;
    private long lastHeartbeat;

    EventTail(LifecycleEventRows rows, EventStream stream, RelayNotifications notifications,
            EventsProperties properties) {
        this.rows = rows;
        this.stream = stream;
        this.notifications = notifications;
        this.properties = properties;
    }

    @Override
    public void start() {
        running = true;
        lastHeartbeat = System.nanoTime();
        Thread t = new Thread(this::loop, "event-tail");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void loop() {
        Position at = null;
        long heldSince = -1;
        while (running) {
            try {
                heartbeatIfDue();
                if (stream.clientCount() == 0) {
                    at = null;
                    listen(false);
                    signal.await(IDLE_LOOK);
                    continue;
                }
                listen(true);
                if (at == null) {
                    at = Position.startingAt(rows.end());
                    stream.publish(EventFrame.mark(at.read())); // what is up to here, a client reads itself
                }
                LifecycleEventRows.Page page = rows.after(at.read(), properties.batchSize());
                at = publish(at, page);
                if (log.isDebugEnabled() && (!page.rows().isEmpty() || page.heldBack())) {
                    log.debug("event-tail-read events={} held_back={} at={}", page.rows().size(), page.heldBack(),
                            at.read());
                }
                heldSince = page.heldBack() ? (heldSince < 0 ? System.nanoTime() : heldSince) : -1;
                if (page.rows().size() < properties.batchSize()) {
                    signal.await(heldSince < 0 ? POLL
                            : OutboxRelay.heldBackRetry(HELD_BACK_FIRST_RETRY, Duration.ofNanos(System.nanoTime()
                                    - heldSince)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (running) {
                    log.warn("event-tail-failed retry_in=1s cause={}", e.toString());
                    at = null; // clients catch up from where they are; the tail starts at the end again
                    pause();
                }
            }
        }
        listen(false);
    }

    /** Publishes a page's events; each frame names the event published before it, so a client can tell a gap. */
    private Position publish(Position at, LifecycleEventRows.Page page) {
        EventPosition published = at.published();
        for (var row : page.rows()) {
            EventFrame frame = EventFrame.of(published, row);
            if (frame != null) {
                stream.publish(frame);
                published = row.position();
            }
        }
        return new Position(page.end(at.read()), published);
    }

    private void heartbeatIfDue() {
        long now = System.nanoTime();
        if (now - lastHeartbeat >= properties.heartbeatInterval().toNanos()) {
            stream.heartbeat();
            lastHeartbeat = now;
        }
    }

    private void listen(boolean active) {
        if (active && listener == null) {
            listener = notifications.listen(signal);
        } else if (!active && listener != null) {
            try {
                listener.close();
            } catch (Exception e) {
                // closing only stops its loop
            }
            listener = null;
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

    /** Whether the tail follows the table: somebody listened at its last look. */
    boolean isReading() {
        return listener != null;
    }

    @Override
    public void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Where the tail has read to, and the last event it published (what the next frame names as its previous). */
    private record Position(EventPosition read, EventPosition published) {

        static Position startingAt(EventPosition position) {
            return new Position(position, position);
        }
    }
}
