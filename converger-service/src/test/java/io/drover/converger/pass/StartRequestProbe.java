package io.drover.converger.pass;

import io.drover.model.json.Json;
import io.drover.model.messaging.LrpStartRequested;
import io.drover.model.messaging.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads the start requests that really reached Kafka, as the auctioneer would. */
final class StartRequestProbe implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final List<LrpStartRequested> received = new ArrayList<>();

    StartRequestProbe(String bootstrapServers) {
        consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "start-request-probe-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(Topics.START_REQUESTS));
    }

    /** The start requests for this LRP with this reason received so far (polls once more first). */
    List<LrpStartRequested> received(String processGuid, String reason) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
            received.add(Json.read(record.value(), LrpStartRequested.class));
        }
        return received.stream().filter(r -> r.processGuid().equals(processGuid) && r.reason().equals(reason))
                .toList();
    }

    @Override
    public void close() {
        consumer.close();
    }
}
