package io.drover.rep.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

/**
 * A rep starting while Kafka is unreachable: the intake must neither fail nor hold up the rep's start-up (it used to
 * position itself in its constructor, which threw once the consumer's API timeout passed), and must stop retrying
 * when closed.
 */
class WorkConsumerTest {

    private static final WorkSink NOWHERE = new WorkSink() {
        @Override
        public void placed(List<LrpsPlaced.Placement> placements, Instant placedAt) {
        }

        @Override
        public void stopRequested(LrpStopRequested request) {
        }
    };

    @Test
    void startsWhileTheBrokerIsUnreachableKeepsRetryingAndStopsWhenClosed() throws IOException {
        DefaultKafkaConsumerFactory<String, String> factory = new DefaultKafkaConsumerFactory<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + unusedPort(),
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 500,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));

        // Generous deadlines: they catch a start or close that waits for the broker (that would be forever), not a
        // slow one. On a loaded machine the JVM's first Kafka consumer alone took more than 5 s to construct.
        WorkConsumer intake = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            WorkConsumer started = new WorkConsumer(factory, "drover-rep-unreachable", 32, Map.of("cell-1", NOWHERE),
                    Clock.systemUTC());
            started.start();
            return started;
        });
        // Each attempt gives up after the consumer's API timeout (500 ms here); the intake keeps trying.
        await().atMost(Duration.ofSeconds(60)).until(() -> intake.positionAttempts() >= 3);
        assertThat(intake.positioned()).isFalse();

        assertTimeoutPreemptively(Duration.ofSeconds(60), intake::close);
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
