package io.drover.cluster;

import io.drover.model.json.Json;
import io.drover.model.messaging.Topics;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/**
 * What happened to each instance, told twice: by the {@code lrp_events} audit rows and by the lifecycle topic. Both
 * are written in the same transaction (the event through the outbox), so once the relay has caught up the two must
 * tell the same story, step for step and in the same order; a message the outbox failed to deliver shows as a gap.
 * Instances are keyed {@code process_guid/index} ({@code process_guid/-} for the desired LRP itself), a step is
 * {@code event_type} plus the state after it.
 */
final class LifecycleTrail {

    private LifecycleTrail() {
    }

    /** The audit trail of every LRP whose process_guid starts with {@code prefix}, in commit order per instance. */
    static Map<String, List<String>> inDatabase(LocalCluster cluster, String prefix) throws SQLException {
        Map<String, List<String>> trail = new TreeMap<>();
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
                PreparedStatement s = db.prepareStatement("""
                        SELECT process_guid, instance_index, event_type, to_state FROM lrp_events
                        WHERE process_guid LIKE ? ORDER BY id""")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Object index = rs.getObject(2);
                    trail.computeIfAbsent(rs.getString(1) + "/" + (index == null ? "-" : index), k -> new ArrayList<>())
                            .add(step(rs.getString(3), rs.getString(4)));
                }
            }
        }
        return trail;
    }

    /**
     * The same trail as read from the whole lifecycle topic. Redeliveries (the relay may send a message twice, with the
     * same event id) count once, where they first appeared.
     */
    static Map<String, List<String>> onKafka(LocalCluster cluster, String prefix) {
        Map<String, List<String>> trail = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (ConsumerRecord<String, String> record : readAll(cluster.kafkaBootstrapServers())) {
            if (record.key() == null || !record.key().startsWith(prefix)) {
                continue;
            }
            JsonNode event = Json.tree(record.value());
            if (!seen.add(event.path("event_id").asString())) {
                continue;
            }
            String type = event.path("type").asString();
            JsonNode after = event.path("after");
            JsonNode any = after.isObject() ? after : event.path("before");
            String instance = type.startsWith("desired") ? "-" : String.valueOf(any.path("index").asInt());
            String state = type.startsWith("desired") || !after.isObject() ? null : after.path("state").asString();
            trail.computeIfAbsent(record.key() + "/" + instance, k -> new ArrayList<>()).add(step(type, state));
        }
        return trail;
    }

    private static String step(String type, String toState) {
        return toState == null ? type : type + ">" + toState;
    }

    /** Every record of the lifecycle topic, partition by partition (one process_guid lives on one partition). */
    private static List<ConsumerRecord<String, String>> readAll(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS, Duration.ofSeconds(10))
                    .stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("lifecycle topic not read to its end within 20 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
