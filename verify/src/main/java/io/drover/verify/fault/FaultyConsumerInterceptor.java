package io.drover.verify.fault;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Message faults at the consumer boundary of every service, the hook local-cluster's {@code MessagingFaultsIT} uses:
 * registered through {@code spring.kafka.consumer.properties.interceptor.classes}, which only the checker's cluster
 * sets (this class is not on any service's own classpath). Each poll's records are dropped, duplicated or held back
 * (delivered after the next poll's records: late and reordered) at the rates set; records of a held topic are kept
 * back until released, then delivered ahead of the next poll's records, in their order. The receptor's event feed is
 * left alone: what it loses no loop repairs, and the events check would only see the injected loss.
 */
public final class FaultyConsumerInterceptor implements ConsumerInterceptor<Object, Object> {

    private static volatile double drop;
    private static volatile double duplicate;
    private static volatile double reorder;
    private static volatile long seed = 20261129L;
    private static final Set<String> HELD_TOPICS = ConcurrentHashMap.newKeySet();
    private static final Set<String> REDELIVERED_TOPICS = ConcurrentHashMap.newKeySet();
    private static final Map<String, AtomicLong> INJECTED = new ConcurrentHashMap<>();

    private Random random = new Random(seed);
    private boolean spared;
    private final List<ConsumerRecord<Object, Object>> late = new ArrayList<>();
    private final List<ConsumerRecord<Object, Object>> held = new ArrayList<>();

    /** Sets the rates (0..1) and the seed of consumers created from now on. */
    public static void set(double dropRate, double duplicateRate, double reorderRate) {
        drop = dropRate;
        duplicate = duplicateRate;
        reorder = reorderRate;
    }

    public static void seed(long value) {
        seed = value;
    }

    /** Keeps every record of {@code topic} back, at every consumer, until {@link #release}. */
    public static void hold(String topic) {
        HELD_TOPICS.add(topic);
    }

    public static void release(String topic) {
        HELD_TOPICS.remove(topic);
    }

    /** Delivers every record of {@code topic} a second time, after the next poll's records, until stopped. */
    public static void redeliver(String topic, boolean on) {
        if (on) {
            REDELIVERED_TOPICS.add(topic);
        } else {
            REDELIVERED_TOPICS.remove(topic);
        }
    }

    /** How many records each fault touched so far. */
    public static Map<String, Long> injected() {
        Map<String, Long> counts = new LinkedHashMap<>();
        INJECTED.forEach((k, v) -> counts.put(k, v.get()));
        return counts;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        String consumer = configs.get("group.id") + "/" + configs.get("client.id");
        spared = consumer.contains("lifecycle-event-feed");
        random = new Random(seed ^ consumer.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "uuid").hashCode());
    }

    @Override
    public synchronized ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        if (spared) {
            return records;
        }
        Map<TopicPartition, List<ConsumerRecord<Object, Object>>> out = new LinkedHashMap<>();
        List<ConsumerRecord<Object, Object>> released = new ArrayList<>();
        held.removeIf(r -> !HELD_TOPICS.contains(r.topic()) && released.add(r));
        released.forEach(r -> add(out, r));
        List<ConsumerRecord<Object, Object>> overdue = List.copyOf(late);
        late.clear();
        for (TopicPartition partition : records.partitions()) {
            for (ConsumerRecord<Object, Object> record : records.records(partition)) {
                if (HELD_TOPICS.contains(record.topic())) {
                    count("hold");
                    held.add(record);
                    continue;
                }
                if (REDELIVERED_TOPICS.contains(record.topic())) {
                    count("redeliver");
                    late.add(record);
                }
                double roll = random.nextDouble();
                if (roll < drop) {
                    count("drop");
                } else if (roll < drop + reorder) {
                    count("reorder");
                    late.add(record);
                } else if (roll < drop + reorder + duplicate) {
                    count("duplicate");
                    add(out, record);
                    add(out, record);
                } else {
                    add(out, record);
                }
            }
        }
        overdue.forEach(r -> add(out, r));
        return new ConsumerRecords<>(out, records.nextOffsets());
    }

    private static void add(Map<TopicPartition, List<ConsumerRecord<Object, Object>>> out,
            ConsumerRecord<Object, Object> record) {
        out.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), p -> new ArrayList<>()).add(record);
    }

    private static void count(String fault) {
        INJECTED.computeIfAbsent(fault, k -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
    }

    @Override
    public void close() {
    }
}
