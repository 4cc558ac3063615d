package io.drover.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single-node KRaft Kafka broker (combined broker and controller) running inside this JVM, built on Kafka's own
 * {@link KafkaRaftServer}. Its storage is formatted on first start and kept in {@code dataDir}, so topics and offsets
 * survive a restart of the local cluster. These are Kafka's internal server classes: the version is pinned in the
 * parent POM and {@code InProcessKafkaIT} checks it still works.
 */
public final class InProcessKafka implements AutoCloseable {

    private static final int NODE_ID = 1;

    private static final String LOOPBACK = "127.0.0.1";

    private final KafkaRaftServer server;
    private final Path dataDir;
    private final Listener listener;
    private final Quorum quorum;

    private InProcessKafka(KafkaRaftServer server, Path dataDir, Listener listener, Quorum quorum) {
        this.server = server;
        this.dataDir = dataDir;
        this.listener = listener;
        this.quorum = quorum;
    }

    /**
     * The KRaft quorum a node belongs to: alone ({@link #ALONE}, node 1 on loopback, every topic on it), or one of
     * several combined broker-controllers ({@code docker-compose.ha.yml}) that share {@code clusterId}, whose
     * controllers are {@code voters} ({@code id@host:port,...}), and whose topics keep {@code replicationFactor}
     * copies, of which {@code minInsyncReplicas} must have a write before a producer with {@code acks=all} hears it
     * was written.
     */
    record Quorum(int nodeId, String voters, String clusterId, int replicationFactor, int minInsyncReplicas) {

        static final Quorum ALONE = new Quorum(NODE_ID, null, null, 1, 1);

        boolean alone() {
            return voters == null;
        }
    }

    /** Formats {@code dataDir} if it is new, then starts the broker on free loopback ports. */
    public static InProcessKafka start(Path dataDir) {
        return start(dataDir, new Listener(LOOPBACK, LOOPBACK, FreePorts.any(), FreePorts.any(), External.NONE),
                Quorum.ALONE);
    }

    /**
     * A broker for a container network (the compose Kafka, {@link KafkaBrokerMain}): it listens on every interface and
     * tells clients to reach it at {@code advertisedHost:port}; the controller listens on {@code port + 1}. With an
     * {@code external} listener it also serves clients outside that network (on the host, through a published port)
     * and tells them to reach it at the published address.
     */
    static InProcessKafka startOnAllInterfaces(Path dataDir, String advertisedHost, int port, Quorum quorum,
            External external) {
        return start(dataDir, new Listener("0.0.0.0", advertisedHost, port, port + 1, external), quorum);
    }

    /**
     * A new broker on this one's data and ports, after this one is closed: to clients it is the same broker coming
     * back (for failure tests: the services keep their bootstrap address and reconnect on their own).
     */
    public InProcessKafka restart() {
        return start(dataDir, listener, quorum);
    }

    private static InProcessKafka start(Path dataDir, Listener listener, Quorum quorum) {
        Path logDir = dataDir.toAbsolutePath();
        try {
            Files.createDirectories(logDir);
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(logDir, quorum);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + logDir, e);
        }
        KafkaConfig config = KafkaConfig.fromProps(properties(logDir, listener, quorum), false);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        return new InProcessKafka(server, dataDir, listener, quorum);
    }

    private static void format(Path logDir, Quorum quorum) throws Exception {
        new Formatter()
                .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                .setNodeId(quorum.nodeId())
                .setClusterId(quorum.alone() ? Uuid.randomUuid().toString() : quorum.clusterId())
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER")
                .setReleaseVersion(MetadataVersion.latestProduction())
                .run();
    }

    static Properties properties(Path logDir, Listener l, Quorum quorum) {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(quorum.nodeId()));
        p.put("controller.quorum.voters", quorum.alone() ? NODE_ID + "@127.0.0.1:" + l.controllerPort()
                : quorum.voters());
        String external = l.external().port() > 0 ? ",EXTERNAL://" + l.bindHost() + ":" + l.external().port() : "";
        p.put("listeners", "PLAINTEXT://" + l.bindHost() + ":" + l.brokerPort() + external + ",CONTROLLER://"
                + (quorum.alone() ? LOOPBACK : l.bindHost()) + ":" + l.controllerPort());
        p.put("advertised.listeners", "PLAINTEXT://" + l.advertisedHost() + ":" + l.brokerPort()
                + (external.isEmpty() ? "" : ",EXTERNAL://" + l.external().advertised()));
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
                + (external.isEmpty() ? "" : ",EXTERNAL:PLAINTEXT"));
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("log.dirs", logDir.toString());
        String replicas = String.valueOf(quorum.replicationFactor());
        String minInsync = String.valueOf(quorum.minInsyncReplicas());
        p.put("offsets.topic.replication.factor", replicas);
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", replicas);
        p.put("transaction.state.log.min.isr", minInsync);
        p.put("default.replication.factor", replicas);
        p.put("min.insync.replicas", minInsync);
        // a replica that lags is dropped from the ISR within 10 s (30 s by default): a broker killed under load
        // leaves acks=all producers waiting on it no longer than that
        p.put("replica.lag.time.max.ms", "10000");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        p.put("log.retention.hours", "24");
        // One node, idle most of the time: the controller's liveness no-op record every 5 s (not every 0.5 s, each one
        // appended, fsynced and replayed by the broker), and fewer request threads polling their queues.
        p.put("metadata.max.idle.interval.ms", "5000");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        return p;
    }

    public String bootstrapServers() {
        return listener.advertisedHost() + ":" + listener.brokerPort();
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    /**
     * Where clients connect (bound on {@code bindHost}, announced as {@code advertisedHost}), and those from outside
     * the container network; the controller is local.
     */
    record Listener(String bindHost, String advertisedHost, int brokerPort, int controllerPort, External external) {
    }

    /**
     * A listener for clients outside the container network: bound on {@code port} (0: none), announced as
     * {@code advertised} ({@code host:port}, the address a published port gives it on the host).
     */
    record External(int port, String advertised) {

        static final External NONE = new External(0, null);
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
