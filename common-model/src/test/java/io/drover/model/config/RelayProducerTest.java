package io.drover.model.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.messaging.OutboxProperties;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;

/** The relay's producer waits for the broker's metadata no longer than its send timeout, or the producers' own bound. */
class RelayProducerTest {

    @ParameterizedTest(name = "send timeout {0} ms, producers'' max.block.ms {1}: {2} ms")
    @CsvSource({
            "30000,       , 30000", // Kafka's default (60 s) is longer than the relay's transaction allows
            "30000, 60000 , 30000",
            "30000, 5000  , 5000", // an operator's (or a test cluster's) shorter bound stands
            "5000,  5000  , 5000",
            "2000,  ' 9000', 2000" })
    void theRelaysMaxBlockIsTheShorterOfTheSendTimeoutAndTheProducers(long sendTimeoutMs, String configured,
            long expected) {
        Map<String, Object> config = new HashMap<>();
        if (configured != null) {
            config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, configured);
        }
        OutboxProperties properties = new OutboxProperties(2000, Duration.ofSeconds(5), Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofMillis(5), Duration.ofSeconds(10), Duration.ofMillis(sendTimeoutMs),
                Duration.ofSeconds(5), true);

        assertThat(DroverModelAutoConfiguration.relayMaxBlockMs(new DefaultKafkaProducerFactory<>(config), properties))
                .isEqualTo(expected);
    }
}
