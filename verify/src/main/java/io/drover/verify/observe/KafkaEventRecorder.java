package io.drover.verify.observe;

import io.drover.model.json.Json;
import io.drover.model.messaging.Topics;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the lifecycle topic as a Kafka consumer of SPEC 5.6 does, from its end when the run starts, and records every
 * lifecycle event of an instance or a desired LRP in the shape of the SSE stream ({@code {"actual_lrp"}} for a
 * creation or a removal, {@code {"actual_lrp_before", "actual_lrp_after"}} for a change, the same with
 * {@code desired_lrp}) under the stream number {@link #STREAM}, so the events check follows every chain on the topic
 * too. The SSE stream reads {@code lrp_events} in PostgreSQL;
 * only this one sees what the outbox relay really delivered (a row marked sent before the broker acknowledged it is
 * a hole here and nowhere else).
 */
public final class KafkaEventRecorder implements AutoCloseable {

    /** The stream number of the topic's events; negative, apart from the SSE streams (1, 2, ...). */
    public static final int STREAM = -1;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final HistoryFile history;
    private final RunClock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private boolean started;

    public KafkaEventRecorder(String bootstrapServers, HistoryFile history, RunClock clock) {
        this.history = history;
        this.clock = clock;
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.CLIENT_ID_CONFIG, "drover-verify-events",
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.thread = new Thread(this::loop, "verify-kafka-events");
        this.thread.setDaemon(true);
    }

    /** Takes every partition of the topic from its current end, records the stream as opened, and starts reading. */
    public KafkaEventRecorder start() {
        List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // the end is fixed now, before the workload's first event
        history.add(new Entry.Stream(STREAM, "opened", clock.now(), "Kafka topic " + Topics.LIFECYCLE_EVENTS));
        thread.start();
        started = true;
        return this;
    }

    private void loop() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    record(Json.tree(new String(record.value(), StandardCharsets.UTF_8)));
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            history.add(new Entry.Stream(STREAM, "closed", clock.now(), "recorder closed"));
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void record(JsonNode event) {
        String type = event.path("type").asString("");
        if (!type.startsWith("actual_lrp_") && !type.startsWith("desired_lrp_")) {
            return; // the events check follows instances and desired LRPs; other checks read the SSE streams only
        }
        String entity = type.startsWith("actual_lrp_") ? "actual_lrp" : "desired_lrp";
        ObjectNode data = Json.MAPPER.createObjectNode();
        if (type.endsWith("_created")) {
            data.set(entity, event.get("after"));
        } else if (type.endsWith("_removed")) {
            data.set(entity, event.get("before"));
        } else {
            data.set(entity + "_before", event.get("before"));
            data.set(entity + "_after", event.get("after"));
        }
        history.add(new Entry.Event(STREAM, null, type, data, clock.now()));
    }

    @Override
    public void close() {
        running = false;
        if (!started) {
            consumer.close(Duration.ZERO);
            return;
        }
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
