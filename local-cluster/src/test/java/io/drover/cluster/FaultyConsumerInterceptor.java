package io.drover.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Test-only fault injection at the Kafka consumer boundary of every service: registered through
 * {@code spring.kafka.consumer.properties.interceptor.classes}, it drops, duplicates and reorders the records each poll
 * hands to the service. Reordering holds a record back and delivers it after the records of the next poll. Like a
 * real poll, the result never holds a partition with no records (Spring Kafka's offset handling relies on it). Each
 * consumer draws from its own {@link Random}, seeded from {@link #seed} and its client id, so its fault sequence
 * replays for the same record sequence ({@code -Ddrover.faults.seed=...}).
 */
public final class FaultyConsumerInterceptor implements ConsumerInterceptor<Object, Object> {

    /** Fault rates in 0..1 and the seed; set them before the cluster starts. */
    static volatile double drop;
    static volatile double duplicate;
    static volatile double reorder;
    static volatile long seed = Long.getLong("drover.faults.seed", 20261129L);

    /** Records seen per consumer ({@code group.id/client.id}), and faults injected, for the test to check. */
    static final Map<String, AtomicLong> SEEN = new ConcurrentHashMap<>();
    static final Map<String, AtomicLong> INJECTED = new ConcurrentHashMap<>();

    private Random random = new Random(seed);
    private String consumer = "?";
    private final List<ConsumerRecord<Object, Object>> held = new ArrayList<>();

    @Override
    public void configure(Map<String, ?> configs) {
        consumer = configs.get("group.id") + "/" + configs.get("client.id");
        random = new Random(seed ^ consumer.replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "uuid").hashCode());
    }

    @Override
    public synchronized ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        SEEN.computeIfAbsent(consumer, k -> new AtomicLong()).addAndGet(records.count());
        Map<TopicPartition, List<ConsumerRecord<Object, Object>>> out = new LinkedHashMap<>();
        List<ConsumerRecord<Object, Object>> late = List.copyOf(held);
        held.clear();
        for (TopicPartition partition : records.partitions()) {
            List<ConsumerRecord<Object, Object>> kept = new ArrayList<>();
            for (ConsumerRecord<Object, Object> record : records.records(partition)) {
                double roll = random.nextDouble();
                if (roll < drop) {
                    count("drop");
                } else if (roll < drop + reorder) {
                    count("reorder");
                    held.add(record);
                } else if (roll < drop + reorder + duplicate) {
                    count("duplicate");
                    kept.add(record);
                    kept.add(record);
                } else {
                    kept.add(record);
                }
            }
            if (!kept.isEmpty()) {
                out.put(partition, kept);
            }
        }
        for (ConsumerRecord<Object, Object> record : late) {
            out.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), p -> new ArrayList<>())
                    .add(record);
        }
        return new ConsumerRecords<>(out, records.nextOffsets());
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

    static void set(double dropRate, double duplicateRate, double reorderRate) {
        drop = dropRate;
        duplicate = duplicateRate;
        reorder = reorderRate;
    }
}
