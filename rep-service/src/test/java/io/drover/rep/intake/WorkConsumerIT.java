package io.drover.rep.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.config.DroverModelAutoConfiguration;
import io.drover.model.json.Json;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import io.drover.test.TestBackend;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

/**
 * The intake against the JVM's real broker: it commits a message only once its cell has handled it, so what a rep
 * still had in hand when it stopped is read again by its next intake, and what it had done is not.
 */
class WorkConsumerIT {

    static final int PARTITIONS = 32;

    @BeforeAll
    static void topics() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, brokers()))) {
            for (String topic : List.of(Topics.AUCTION_RESULTS, Topics.STOP_REQUESTS)) {
                try {
                    admin.createTopics(List.of(DroverModelAutoConfiguration.topic(topic, PARTITIONS, (short) 1)))
                            .all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    @Test
    void workQueuedButNotHandledWhenTheIntakeClosesIsReadAgainByTheNextIntakeOfItsGroup() {
        String cell = "intake-" + UUID.randomUUID();
        String group = "drover-rep-" + cell;
        LrpsPlaced placed = placed(cell);
        Queueing first = new Queueing();
        WorkConsumer intake = intake(group, cell, first);
        intake.start();
        await().atMost(Duration.ofSeconds(60)).until(intake::positioned);

        send(cell, placed);
        await().atMost(Duration.ofSeconds(30)).until(() -> first.placements.size() == 1);
        intake.close(); // the rep stops with the placement queued on its cell, not claimed yet

        Queueing next = new Queueing();
        WorkConsumer restarted = intake(group, cell, next);
        restarted.start();
        try {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(next.placements)
                    .as("the placement its cell never handled").containsExactlyElementsOf(placed.placements()));
        } finally {
            restarted.close();
        }
    }

    @Test
    void workItsCellHandledIsNotReadAgainAndWorkAfterItIs() {
        String cell = "intake-" + UUID.randomUUID();
        String group = "drover-rep-" + cell;
        LrpsPlaced handled = placed(cell);
        LrpsPlaced later = placed(cell);
        Queueing first = new Queueing();
        WorkConsumer intake = intake(group, cell, first);
        intake.start();
        await().atMost(Duration.ofSeconds(60)).until(intake::positioned);

        send(cell, handled);
        await().atMost(Duration.ofSeconds(30)).until(() -> first.placements.size() == 1);
        first.handleAll();
        send(cell, later);
        await().atMost(Duration.ofSeconds(30)).until(() -> first.placements.size() == 2);
        intake.close(); // the second placement still queued

        Queueing next = new Queueing();
        WorkConsumer restarted = intake(group, cell, next);
        restarted.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !next.placements.isEmpty());
            assertThat(next.placements).as("only what was still in hand; records come in order, so the handled one "
                    + "would have come first").containsExactlyElementsOf(later.placements());
        } finally {
            restarted.close();
        }
    }

    private static WorkConsumer intake(String group, String cell, WorkSink sink) {
        return new WorkConsumer(consumers(), group, PARTITIONS, Map.of(cell, sink), Clock.systemUTC());
    }

    private static LrpsPlaced placed(String cell) {
        return new LrpsPlaced(UUID.randomUUID(), cell, UUID.randomUUID(), List.of(new LrpsPlaced.Placement(
                "web-" + UUID.randomUUID(), 0, UUID.randomUUID(), 1)));
    }

    private static void send(String cell, LrpsPlaced message) {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(Topics.AUCTION_RESULTS, cell,
                    Json.MAPPER.writeValueAsBytes(message));
            record.headers().add(Topics.MESSAGE_TYPE_HEADER, LrpsPlaced.TYPE.getBytes(StandardCharsets.UTF_8));
            producer.send(record);
        }
    }

    private static DefaultKafkaConsumerFactory<String, String> consumers() {
        return new DefaultKafkaConsumerFactory<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
    }

    private static String brokers() {
        return TestBackend.current().kafkaBootstrapServers();
    }

    /** A cell that queues what it is given and handles it only when told. */
    static final class Queueing implements WorkSink {
        final List<LrpsPlaced.Placement> placements = new CopyOnWriteArrayList<>();
        final List<Runnable> inHand = new CopyOnWriteArrayList<>();

        @Override
        public void placed(List<LrpsPlaced.Placement> placements, Instant placedAt, Runnable done) {
            this.placements.addAll(placements);
            inHand.add(done);
        }

        @Override
        public void stopRequested(LrpStopRequested request, Runnable done) {
            inHand.add(done);
        }

        void handleAll() {
            inHand.forEach(Runnable::run);
            inHand.clear();
        }
    }
}
