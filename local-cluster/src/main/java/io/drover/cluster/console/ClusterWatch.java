package io.drover.cluster.console;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.console.EventLines.CellSeen;
import io.drover.model.json.Json;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns what the running cluster records into terminal lines ({@link EventLines}): it reads the lifecycle topic from its
 * end (a long poll, so an idle cluster costs it nothing), and every few seconds the cells table and the converger's
 * action counters. It only reads; nothing it does changes the cluster.
 */
public final class ClusterWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterWatch.class);
    private static final Duration POLL = Duration.ofSeconds(2);

    private final LocalCluster cluster;
    private final Consumer<String> lines;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private KafkaConsumer<String, String> events;
    private Connection database;
    private Map<String, CellSeen> cells;
    private Map<String, Double> repairs;

    public ClusterWatch(LocalCluster cluster, Consumer<String> lines, Clock clock) {
        this.cluster = cluster;
        this.lines = lines;
        this.clock = clock;
        this.thread = new Thread(this::run, "cluster-watch");
        this.thread.setDaemon(true);
    }

    /** Starts watching; what the cluster looks like now is the baseline, not news. */
    public ClusterWatch start() {
        cells = safely(this::readCells, Map.of());
        repairs = repairCounts();
        thread.start();
        return this;
    }

    private void run() {
        while (running) {
            try {
                for (ConsumerRecord<String, String> record : events().poll(POLL)) {
                    EventLines.lifecycle(Json.read(record.value(), LifecycleEvent.class), clock.getZone())
                            .ifPresent(lines);
                }
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                log.debug("cluster-watch-events-failed cause={}", e.toString());
                sleep();
            }
            Map<String, CellSeen> now = safely(this::readCells, cells);
            EventLines.cells(cells, now).forEach(lines);
            cells = now;
            Map<String, Double> done = repairCounts();
            EventLines.repairs(repairs, done).ifPresent(lines);
            repairs = done;
        }
    }

    private KafkaConsumer<String, String> events() {
        if (events == null) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.kafkaBootstrapServers());
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, "drover-local-watch");
            // The broker answers as soon as an event arrives; an idle wait costs one request per poll, not four.
            p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(POLL.toMillis()));
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p);
            try {
                List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS,
                        Duration.ofSeconds(10)).stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                partitions.forEach(consumer::position);
            } catch (RuntimeException e) {
                consumer.close(Duration.ZERO);
                throw e;
            }
            events = consumer;
        }
        return events;
    }

    private Map<String, CellSeen> readCells() throws SQLException {
        if (database == null || database.isClosed()) {
            database = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
        }
        Map<String, CellSeen> seen = new HashMap<>();
        try (Statement s = database.createStatement();
             ResultSet rs = s.executeQuery("SELECT cell_id, zone, expires_at > now() AS live FROM cells")) {
            while (rs.next()) {
                seen.put(rs.getString(1), new CellSeen(rs.getString(2), rs.getBoolean(3)));
            }
        }
        return seen;
    }

    private Map<String, Double> repairCounts() {
        Map<String, Double> counts = new HashMap<>();
        try {
            MeterRegistry meters = cluster.service("converger-service").getBean(MeterRegistry.class);
            for (Counter c : meters.find("drover.convergence.actions").tag("outcome", "applied").counters()) {
                counts.put(c.getId().getTag("rule"), c.count());
            }
        } catch (RuntimeException e) {
            log.debug("cluster-watch-repairs-failed cause={}", e.toString());
            return repairs == null ? counts : repairs;
        }
        return counts;
    }

    private <T> T safely(SqlRead<T> read, T fallback) {
        try {
            return read.get();
        } catch (SQLException | RuntimeException e) {
            log.debug("cluster-watch-cells-failed cause={}", e.toString());
            closeDatabase();
            return fallback;
        }
    }

    private void sleep() {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void closeDatabase() {
        try {
            if (database != null) {
                database.close();
            }
        } catch (SQLException ignored) {
            // closing a broken connection
        }
        database = null;
    }

    @Override
    public void close() {
        running = false;
        KafkaConsumer<String, String> consumer = events;
        if (consumer != null) {
            consumer.wakeup();
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (consumer != null) {
            // Nothing to commit or leave; a timeout would only wait behind the fetch still parked at the broker.
            consumer.close(Duration.ZERO);
        }
        closeDatabase();
    }

    @FunctionalInterface
    private interface SqlRead<T> {
        T get() throws SQLException;
    }
}
