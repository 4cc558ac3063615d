package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The compose broker's listeners: the compose network's, and the host's only when one is asked for. */
class InProcessKafkaListenersTest {

    private static final Path DATA = Path.of("/tmp/kafka");

    @Test
    void aBrokerOnTheComposeNetworkAnnouncesItsServiceNameOnly() {
        Properties p = InProcessKafka.properties(DATA, new InProcessKafka.Listener("0.0.0.0", "kafka", 9092, 9093,
                InProcessKafka.External.NONE), InProcessKafka.Quorum.ALONE);

        assertThat(p.getProperty("listeners")).isEqualTo("PLAINTEXT://0.0.0.0:9092,CONTROLLER://127.0.0.1:9093");
        assertThat(p.getProperty("advertised.listeners")).isEqualTo("PLAINTEXT://kafka:9092");
        assertThat(p.getProperty("listener.security.protocol.map"))
                .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    }

    @Test
    void anExternalListenerServesTheHostAtThePublishedAddressBesideTheNetworksOwn() {
        Properties p = InProcessKafka.properties(DATA, new InProcessKafka.Listener("0.0.0.0", "kafka", 9092, 9093,
                new InProcessKafka.External(9094, "127.0.0.1:40123")), InProcessKafka.Quorum.ALONE);

        assertThat(p.getProperty("listeners"))
                .isEqualTo("PLAINTEXT://0.0.0.0:9092,EXTERNAL://0.0.0.0:9094,CONTROLLER://127.0.0.1:9093");
        assertThat(p.getProperty("advertised.listeners"))
                .isEqualTo("PLAINTEXT://kafka:9092,EXTERNAL://127.0.0.1:40123");
        assertThat(p.getProperty("listener.security.protocol.map"))
                .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,EXTERNAL:PLAINTEXT");
        assertThat(p.getProperty("inter.broker.listener.name")).as("the brokers still talk on the network's")
                .isEqualTo("PLAINTEXT");
    }
}
