package io.drover.test;

import org.testcontainers.kafka.KafkaContainer;

/** A single-node KRaft Kafka in a Docker container, for {@code -Ptestcontainers}. */
final class ContainerKafka {

    private ContainerKafka() {
    }

    static String bootstrapServers() {
        KafkaContainer kafka = new KafkaContainer("apache/kafka:4.1.2");
        kafka.start();
        return kafka.getBootstrapServers();
    }
}
