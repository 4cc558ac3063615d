package io.drover.receptor.events;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;

/**
 * Reads {@code drover.lifecycle.events} for the SSE stream. Every receptor must see every event, so it reads all
 * partitions with no group and nothing committed, from the end: a stream is live, not a replay. The reader's loop also
 * sends the heartbeat comments, so they keep flowing while Kafka is away.
 *
 * <p>While nobody listens, nothing is fetched (the reader's partitions are paused): every event of the cluster, about
 * three per instance started, would otherwise cross from the broker to every receptor to be thrown away. A client that
 * connects then waits until the reader has moved to the end and resumed ({@link #awaitLive}), so its stream has every
 * event written after it opened, as when the reader never stops.
 */
@Component
public class LifecycleEventFeed implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LifecycleEventFeed.class);

    private final EventStream stream;
    private final Duration heartbeatInterval;
    private final Clock clock;
    private final TopicReader reader;
    private volatile Instant lastHeartbeat;
    private volatile boolean running;

    LifecycleEventFeed(ConsumerFactory<?, ?> consumers, EventStream stream, EventsProperties properties, Clock clock) {
        this.stream = stream;
        this.heartbeatInterval = properties.heartbeatInterval();
        this.clock = clock;
        this.reader = new TopicReader(consumers, new TopicReader.Settings("lifecycle-event-feed", null,
                TopicReader.StartAt.LATEST, null, 2_000, Duration.ofMillis(250), 0),
                TopicReader.allOf(Topics.LIFECYCLE_EVENTS), this::stream, through -> heartbeatIfDue())
                .idleWhile(() -> stream.clientCount() == 0);
    }

    /** True once every partition is assigned and positioned at its end: events from now on are streamed. */
    public boolean isReady() {
        return reader.positioned();
    }

    /**
     * Waits (at most {@code wait}) until every event written from now on will be streamed: at once while somebody else
     * listens, otherwise until the reader, idle until this client connected, has moved to the end and resumed. False
     * if it did not in time (the broker does not answer): the stream is then live from when it can be.
     */
    boolean awaitLive(Duration wait) {
        try {
            return reader.awaitReading(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the feed reads the topic: somebody listened at its last look. */
    boolean isReading() {
        return reader.isReading();
    }

    /** Lifecycle records handed to this feed so far (none while nobody listens). */
    long recordsRead() {
        return reader.handedOver();
    }

    @Override
    public void start() {
        lastHeartbeat = clock.instant();
        running = true;
        reader.start();
    }

    private void stream(List<ConsumerRecord<String, byte[]>> records) {
        if (stream.clientCount() == 0) {
            return; // nobody listens: do not parse and re-encode every event of the cluster
        }
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                LifecycleEvent event = Json.read(record.value(), LifecycleEvent.class);
                String data = SseEvents.data(event);
                if (data != null) {
                    stream.publish(event.type(), data);
                }
            } catch (RuntimeException e) {
                log.warn("lifecycle-event-skipped partition={} offset={} error={}", record.partition(),
                        record.offset(), e.toString());
            }
        }
    }

    private void heartbeatIfDue() {
        Instant now = clock.instant();
        if (Duration.between(lastHeartbeat, now).compareTo(heartbeatInterval) >= 0) {
            stream.heartbeat();
            lastHeartbeat = now;
        }
    }

    @Override
    public void stop() {
        running = false;
        reader.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
