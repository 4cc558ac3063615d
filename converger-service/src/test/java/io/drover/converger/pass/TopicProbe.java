package io.drover.converger.pass;

import io.drover.model.json.Json;
import io.drover.model.messaging.ConvergenceRequested;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads the messages that really reached a Kafka topic, as their consumer (auctioneer, rep) would. */
final class TopicProbe<T> implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final Class<T> type;
    private final List<T> received = new ArrayList<>();

    private TopicProbe(String bootstrapServers, String topic, Class<T> type) {
        this.type = type;
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "probe-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(topic));
    }

    static TopicProbe<LrpStartRequested> startRequests(String bootstrapServers) {
        return new TopicProbe<>(bootstrapServers, Topics.START_REQUESTS, LrpStartRequested.class);
    }

    static TopicProbe<ConvergenceRequested> convergenceRequests(String bootstrapServers) {
        return new TopicProbe<>(bootstrapServers, Topics.CONVERGENCE_REQUESTS, ConvergenceRequested.class);
    }

    static TopicProbe<LrpStopRequested> stopRequests(String bootstrapServers) {
        return new TopicProbe<>(bootstrapServers, Topics.STOP_REQUESTS, LrpStopRequested.class);
    }

    /** The messages matching {@code filter} received so far (polls once more first). */
    List<T> received(Predicate<T> filter) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
            received.add(Json.read(record.value(), type));
        }
        return received.stream().filter(filter).toList();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
