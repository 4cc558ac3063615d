package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Fans every event the tail reads out to every connected client. Publishing only offers to bounded queues, so it never
 * waits for a client: a client that cannot keep up reads what it missed from PostgreSQL instead (no event is ever
 * dropped, for it or the others).
 */
@Component
class EventStream implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EventStream.class);

    private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
    private final EventsProperties properties;
    private final EventReplay replay;
    private final ExecutorService writers = Executors.newCachedThreadPool(daemonThreads());
    private final Counter events;
    private final Counter overflows;
    private volatile boolean running;

    EventStream(EventsProperties properties, EventReplay replay, MeterRegistry meters) {
        this.properties = properties;
        this.replay = replay;
        this.events = Counter.builder("drover.receptor.sse.events").description("events streamed").register(meters);
        this.overflows = Counter.builder("drover.receptor.sse.overflows")
                .description("times a client's buffer was full and it caught up from PostgreSQL").register(meters);
        Gauge.builder("drover.receptor.sse.clients", clients, Set::size).description("connected clients")
                .register(meters);
    }

    /**
     * A new client whose stream carries every event after {@code start}, or null when the receptor already streams to
     * its maximum.
     */
    SseEmitter connect(EventPosition start) {
        if (clients.size() >= properties.maxClients()) {
            return null;
        }
        SseEmitter emitter = new SseEmitter(0L);
        SseClient[] holder = new SseClient[1];
        SseClient client = new SseClient(emitter, start, properties.clientBuffer(), replay::after,
                () -> clients.remove(holder[0]), this::overflowed);
        holder[0] = client;
        emitter.onCompletion(client::close);
        emitter.onTimeout(client::close);
        emitter.onError(e -> client.close());
        clients.add(client);
        writers.execute(client);
        log.info("sse-client-connected clients={} after={}", clients.size(), start);
        return emitter;
    }

    void publish(EventFrame frame) {
        if (frame.isEvent()) {
            events.increment();
        }
        offerToAll(frame);
    }

    /** A comment line that keeps idle streams open through proxies and reveals dead clients. */
    void heartbeat() {
        offerToAll(EventFrame.comment("heartbeat"));
    }

    @Override
    public void start() {
        running = true;
    }

    /**
     * Closes every stream (each writer completes its response) before the web server's graceful shutdown, which would
     * otherwise wait its whole timeout for streams that never end. Restartable: the writer pool stays (its idle
     * daemon threads end by themselves), as a stopped context may be started again.
     */
    @Override
    public void stop() {
        running = false;
        clients.forEach(SseClient::close);
        clients.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    int clientCount() {
        return clients.size();
    }

    private void offerToAll(EventFrame frame) {
        for (SseClient client : clients) {
            client.offer(frame);
        }
    }

    private void overflowed() {
        overflows.increment();
        log.debug("sse-client-behind reason=buffer-full buffer={}", properties.clientBuffer());
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "sse-client-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
