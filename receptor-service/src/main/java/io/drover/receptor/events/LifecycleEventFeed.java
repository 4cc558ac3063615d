package io.drover.receptor.events;

import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.stereotype.Component;

/**
 * Reads {@code drover.lifecycle.events} for the SSE stream. Every receptor must see every event, so it assigns itself
 * all partitions (no consumer group, no rebalancing, nothing committed) and starts at the latest offset: a stream is
 * live, not a replay. The same loop sends the heartbeat comments, so they keep flowing while Kafka is away.
 */
@Component
public class LifecycleEventFeed implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LifecycleEventFeed.class);
    private static final Duration POLL = Duration.ofMillis(250);

    private final ConsumerFactory<String, String> consumers;
    private final EventStream stream;
    private final Duration heartbeatInterval;
    private final Clock clock;
    private volatile Consumer<String, String> consumer;
    private volatile Thread thread;
    private volatile boolean running;
    private volatile boolean ready;

    LifecycleEventFeed(ConsumerFactory<String, String> consumers, EventStream stream, EventsProperties properties,
            Clock clock) {
        this.consumers = consumers;
        this.stream = stream;
        this.heartbeatInterval = properties.heartbeatInterval();
        this.clock = clock;
    }

    /** True once every partition is assigned and positioned at its end: events from now on are streamed. */
    public boolean isReady() {
        return ready;
    }

    @Override
    public void start() {
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = consumers.createConsumer(null, "receptor-events", null, overrides);
        ready = false;
        running = true;
        thread = new Thread(this::run, "lifecycle-event-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Instant lastHeartbeat = clock.instant();
        while (running) {
            try {
                if (!ready) {
                    assignAll();
                }
                for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                    stream(record);
                }
            } catch (WakeupException e) {
                break;
            } catch (RuntimeException e) {
                log.warn("lifecycle-event-feed-error error={} (retrying)", e.toString());
                pause();
            }
            if (Duration.between(lastHeartbeat, clock.instant()).compareTo(heartbeatInterval) >= 0) {
                stream.heartbeat();
                lastHeartbeat = clock.instant();
            }
        }
        consumer.close(Duration.ofSeconds(2));
    }

    private void assignAll() {
        List<PartitionInfo> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS);
        if (partitions == null || partitions.isEmpty()) {
            pause();
            return;
        }
        List<TopicPartition> assigned = partitions.stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        assigned.forEach(consumer::position);
        ready = true;
        log.info("lifecycle-event-feed-ready topic={} partitions={}", Topics.LIFECYCLE_EVENTS, assigned.size());
    }

    private void pause() {
        try {
            Thread.sleep(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void stream(ConsumerRecord<String, String> record) {
        if (stream.clientCount() == 0) {
            return; // nobody listens: do not parse and re-encode every event of the cluster
        }
        try {
            LifecycleEvent event = Json.read(record.value(), LifecycleEvent.class);
            String data = SseEvents.data(event);
            if (data != null) {
                stream.publish(event.type(), data);
            }
        } catch (RuntimeException e) {
            log.warn("lifecycle-event-skipped partition={} offset={} error={}", record.partition(), record.offset(),
                    e.toString());
        }
    }

    @Override
    public void stop() {
        running = false;
        Consumer<String, String> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        Thread t = thread;
        if (t != null) {
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
}
