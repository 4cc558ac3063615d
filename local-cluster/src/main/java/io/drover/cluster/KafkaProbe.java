package io.drover.cluster;

import io.drover.model.json.Json;
import io.drover.model.messaging.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringDeserializer;
import tools.jackson.databind.JsonNode;

/**
 * What {@code ./drover-compose-test --ha} asks of the three brokers of {@code docker-compose.ha.yml}, run inside a
 * Kafka container ({@code java -cp app.jar io.drover.cluster.KafkaProbe ...}); prints plain lines for the driver:
 * <ul>
 * <li>{@code leaders <bootstrap>}: {@code leader <node> <partitions it leads>} per broker, then
 * {@code under-replicated <n>} and {@code offline <n>} over every partition of every topic;
 * <li>{@code trail <bootstrap> <prefix>}: the lifecycle topic read from its start, per instance of every LRP whose
 * process_guid starts with the prefix: {@code <process_guid>/<index or ->\t<event_type>[><state>],...} in the
 * topic's order, each event once (the relay may send one twice). The driver compares it with {@code lrp_events}.
 * </ul>
 */
public final class KafkaProbe {

    private KafkaProbe() {
    }

    public static void main(String[] args) throws Exception {
        // without a configuration file Logback logs every client setting; the driver reads only the lines below
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
        if (args.length >= 2 && args[0].equals("leaders")) {
            leaders(args[1]);
        } else if (args.length >= 3 && args[0].equals("trail")) {
            trail(args[1], args[2]).forEach((key, steps) -> System.out.println(key + "\t" + String.join(",", steps)));
        } else {
            System.err.println("usage: KafkaProbe leaders <bootstrap> | trail <bootstrap> <prefix>");
            System.exit(2);
        }
    }

    private static void leaders(String bootstrap) throws Exception {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        try (Admin admin = Admin.create(p)) {
            Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
            Map<String, TopicDescription> topics = admin.describeTopics(names).allTopicNames().get();
            Map<Integer, Integer> led = new TreeMap<>();
            admin.describeCluster().nodes().get().forEach(n -> led.put(n.id(), 0));
            int underReplicated = 0;
            int offline = 0;
            for (TopicDescription topic : topics.values()) {
                for (TopicPartitionInfo partition : topic.partitions()) {
                    if (partition.leader() == null || partition.leader().isEmpty()) {
                        offline++;
                    } else {
                        led.merge(partition.leader().id(), 1, Integer::sum);
                    }
                    if (partition.isr().size() < partition.replicas().size()) {
                        underReplicated++;
                    }
                }
            }
            led.forEach((node, count) -> System.out.println("leader " + node + " " + count));
            System.out.println("under-replicated " + underReplicated);
            System.out.println("offline " + offline);
        }
    }

    static Map<String, List<String>> trail(String bootstrap, String prefix) {
        Map<String, List<String>> trail = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (ConsumerRecord<String, String> record : readAll(bootstrap)) {
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
            trail.computeIfAbsent(record.key() + "/" + instance, k -> new ArrayList<>())
                    .add(state == null ? type : type + ">" + state);
        }
        return trail;
    }

    /** Every record of the lifecycle topic, partition by partition (one process_guid lives on one partition). */
    private static List<ConsumerRecord<String, String>> readAll(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.LIFECYCLE_EVENTS, Duration.ofSeconds(20))
                    .stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(20));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("lifecycle topic not read to its end within 60 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
