package io.drover.receptor.events;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Fans every event out to every connected client. Publishing only offers to bounded queues, so it never waits for a
 * client: a client that cannot keep up is dropped (the event is never dropped for the others). Event ids increase for
 * the life of this receptor.
 */
@Component
class EventStream implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EventStream.class);

    private final Set<SseClient> clients = ConcurrentHashMap.newKeySet();
    private final AtomicLong ids = new AtomicLong();
    private final EventsProperties properties;
    private final ExecutorService writers = Executors.newCachedThreadPool(daemonThreads());
    private final Counter events;
    private final Counter dropped;
    private volatile boolean running;

    EventStream(EventsProperties properties, MeterRegistry meters) {
        this.properties = properties;
        this.events = Counter.builder("drover.receptor.sse.events").description("events streamed").register(meters);
        this.dropped = Counter.builder("drover.receptor.sse.dropped.clients")
                .description("clients dropped because their buffer was full").register(meters);
        Gauge.builder("drover.receptor.sse.clients", clients, Set::size).description("connected clients")
                .register(meters);
    }

    /** A new client, or null when the receptor already streams to its maximum. */
    SseEmitter connect() {
        if (clients.size() >= properties.maxClients()) {
            return null;
        }
        SseEmitter emitter = new SseEmitter(0L);
        SseClient[] holder = new SseClient[1];
        SseClient client = new SseClient(emitter, properties.clientBuffer(), () -> clients.remove(holder[0]));
        holder[0] = client;
        emitter.onCompletion(client::close);
        emitter.onTimeout(client::close);
        emitter.onError(e -> client.close());
        client.offer(SseClient.comment("connected"));
        clients.add(client);
        writers.execute(client);
        log.info("sse-client-connected clients={}", clients.size());
        return emitter;
    }

    void publish(String name, String data) {
        long id = ids.incrementAndGet();
        events.increment();
        offerToAll(SseClient.event(id, name, data));
    }

    /** A comment line that keeps idle streams open through proxies and reveals dead clients. */
    void heartbeat() {
        offerToAll(SseClient.comment("heartbeat"));
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

    private void offerToAll(Set<DataWithMediaType> frame) {
        for (SseClient client : clients) {
            if (!client.offer(frame) && !client.isClosed()) {
                client.close();
                clients.remove(client);
                dropped.increment();
                log.warn("sse-client-dropped reason=buffer-full buffer={}", properties.clientBuffer());
            }
        }
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
