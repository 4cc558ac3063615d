package io.drover.test;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A Kafka broker of its own whose network a test can cut and restore, to test what happens while "the broker is down"
 * without touching the JVM's shared embedded broker. The broker advertises a {@link TcpProxy}, so producers and
 * consumers (which reconnect to the advertised address) really lose it on {@link #cut()}; the broker keeps its logs
 * and its producer state, like a broker behind a failed network link.
 */
public final class CuttableKafka implements AutoCloseable {

    private final EmbeddedKafkaKraftBroker broker;
    private final TcpProxy proxy;

    private CuttableKafka(EmbeddedKafkaKraftBroker broker, TcpProxy proxy) {
        this.broker = broker;
        this.proxy = proxy;
    }

    /** Starts a single-node KRaft broker behind a proxy and creates {@code topics} on it. */
    public static CuttableKafka start(NewTopic... topics) {
        // The KRaft test kit binds the listener to a port of its choice, so the proxy learns its target after startup;
        // the broker only needs to know what to advertise.
        TcpProxy proxy = TcpProxy.unbound();
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperty("advertised.listeners", "EXTERNAL://localhost:" + proxy.port());
        broker.brokerProperty("auto.create.topics.enable", "false");
        Map<Object, Object> saved = kafkaSystemProperties();
        try {
            broker.afterPropertiesSet();
        } finally {
            // the broker publishes its address in system properties; the JVM's shared broker must stay the default
            restore(saved);
        }
        String direct = broker.getBrokersAsString();
        proxy.forwardTo(Integer.parseInt(direct.substring(direct.lastIndexOf(':') + 1)));
        CuttableKafka kafka = new CuttableKafka(broker, proxy);
        if (topics.length > 0) {
            broker.addTopics(topics);
        }
        return kafka;
    }

    /** Where clients connect: the proxy. */
    public String bootstrapServers() {
        return "localhost:" + proxy.port();
    }

    /** The broker becomes unreachable: the port refuses connections and open connections drop. */
    public void cut() {
        proxy.cut();
    }

    /** The broker is reachable again on the same address. */
    public void restore() {
        proxy.restore();
    }

    @Override
    public void close() {
        proxy.close();
        broker.destroy();
    }


    private static Map<Object, Object> kafkaSystemProperties() {
        Map<Object, Object> saved = new HashMap<>();
        System.getProperties().forEach((k, v) -> {
            if (k.toString().contains("kafka")) {
                saved.put(k, v);
            }
        });
        return saved;
    }

    private static void restore(Map<Object, Object> saved) {
        Properties current = System.getProperties();
        for (Object key : current.keySet().toArray()) {
            if (key.toString().contains("kafka") && !saved.containsKey(key)) {
                current.remove(key);
            }
        }
        current.putAll(saved);
    }
}
