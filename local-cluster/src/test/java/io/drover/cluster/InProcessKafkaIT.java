package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pins the behaviour of Kafka's internal server classes the local cluster relies on. */
class InProcessKafkaIT {

    @TempDir
    Path dataDir;

    @Test
    void brokerStartsServesAndKeepsItsDataAcrossARestart() throws Exception {
        try (InProcessKafka kafka = InProcessKafka.start(dataDir)) {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("smoke", 2, (short) 1))).all().get();
            }
            try (var producer = new KafkaProducer<String, String>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>("smoke", "k", "hello")).get();
            }
        }
        assertThat(Files.exists(dataDir.resolve("meta.properties"))).isTrue();

        try (InProcessKafka kafka = InProcessKafka.start(dataDir);
             var consumer = new KafkaConsumer<String, String>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ConsumerConfig.GROUP_ID_CONFIG, "smoke-reader",
                     ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                     new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("smoke"));
            String seen = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen == null && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                for (var record : records) {
                    seen = record.value();
                }
            }
            assertThat(seen).isEqualTo("hello");
        }
    }
}
