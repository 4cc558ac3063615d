package io.drover.cluster;

import ch.qos.logback.classic.Level;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka of {@code docker-compose.yml}: the one-node KRaft broker of the local cluster ({@link InProcessKafka}, Kafka's
 * own server classes), listening on every interface of its container. It is the image {@code drover/kafka}, built from
 * the local-cluster jar, so no Kafka image has to be pulled. Environment: {@code KAFKA_DATA_DIR} (default
 * {@code /home/drover/data/kafka}), {@code KAFKA_ADVERTISED_HOST} (default: the host name, which compose makes the
 * service's), {@code KAFKA_PORT} (9092; the controller takes the next port). Once the broker serves, it creates the
 * file {@code KAFKA_READY_FILE} (default {@code /tmp/kafka-ready}) for the container's health check. Clients outside
 * the compose network (the truth checker's topic reader, {@code docker-compose.verify.yml}) get a listener of their
 * own with {@code KAFKA_EXTERNAL_PORT} (inside the container, published on the host) and
 * {@code KAFKA_EXTERNAL_ADVERTISED} (the {@code host:port} they reach it at); without them there is none.
 *
 * <p>One of several ({@code docker-compose.ha.yml}, docs/ha.md): {@code KAFKA_NODE_ID}, {@code KAFKA_CONTROLLER_VOTERS}
 * ({@code 1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093}), {@code KAFKA_CLUSTER_ID} (the same on every node, a base64
 * UUID), {@code KAFKA_REPLICATION_FACTOR} and {@code KAFKA_MIN_INSYNC_REPLICAS} (both 1 alone).
 */
public final class KafkaBrokerMain {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerMain.class);

    private KafkaBrokerMain() {
    }

    public static void main(String[] args) throws IOException {
        // Without a configuration file Logback logs everything at DEBUG; a broker's INFO lines are plenty.
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).setLevel(Level.INFO);
        Path dataDir = Path.of(env("KAFKA_DATA_DIR", "/home/drover/data/kafka"));
        Path ready = Path.of(env("KAFKA_READY_FILE", "/tmp/kafka-ready"));
        // A stopped container keeps its files: the marker of the previous run must not report this one healthy.
        Files.deleteIfExists(ready);
        String host = env("KAFKA_ADVERTISED_HOST", InetAddress.getLocalHost().getHostName());
        int port = Integer.parseInt(env("KAFKA_PORT", "9092"));
        String voters = System.getenv("KAFKA_CONTROLLER_VOTERS");
        InProcessKafka.Quorum quorum = voters == null || voters.isBlank() ? InProcessKafka.Quorum.ALONE
                : new InProcessKafka.Quorum(Integer.parseInt(env("KAFKA_NODE_ID", "1")), voters,
                        env("KAFKA_CLUSTER_ID", "ZHJvdmVyLWthZmthLWhhAA"),
                        Integer.parseInt(env("KAFKA_REPLICATION_FACTOR", "3")),
                        Integer.parseInt(env("KAFKA_MIN_INSYNC_REPLICAS", "2")));
        String externalPort = env("KAFKA_EXTERNAL_PORT", "0");
        InProcessKafka.External external = externalPort.equals("0") ? InProcessKafka.External.NONE
                : new InProcessKafka.External(Integer.parseInt(externalPort), env("KAFKA_EXTERNAL_ADVERTISED",
                        "127.0.0.1:" + externalPort));
        InProcessKafka kafka = InProcessKafka.startOnAllInterfaces(dataDir, host, port, quorum, external);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("kafka-broker-stopping");
            kafka.close();
        }, "kafka-broker-shutdown"));
        Files.writeString(ready, kafka.bootstrapServers() + "\n");
        log.info("kafka-broker-ready bootstrap={} data={} node={} voters={}", kafka.bootstrapServers(), dataDir,
                quorum.nodeId(), quorum.alone() ? "alone" : quorum.voters());
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
