package io.drover.rep.intake;

import io.drover.model.json.Json;
import io.drover.model.messaging.CellPartitions;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Reads the auction results and stop requests of this process's cells, and nothing else: it {@code assign}s itself
 * exactly the partitions its cell ids hash to (no group membership, no rebalancing) and hands each message to the cell
 * it names; messages of other cells sharing a partition are skipped. It resumes from the committed offsets, or, for a
 * new cell, from the end as of before the cell first announces itself (so nothing placed on it is missed). Offsets
 * are committed once messages are queued with their cells; one lost on a crash is repaired by the converger.
 */
public final class WorkConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkConsumer.class);

    private final Consumer<String, String> consumer;
    private final Map<String, ? extends WorkSink> sinks;
    private volatile boolean running;
    private Thread thread;

    /** Assigns and positions the consumer at once; {@link #start()} begins reading. */
    public WorkConsumer(ConsumerFactory<String, String> factory, String groupId, int cellPartitions,
            Map<String, ? extends WorkSink> sinks) {
        this.sinks = sinks;
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        this.consumer = factory.createConsumer(groupId, "rep", null, overrides);
        Set<TopicPartition> partitions = partitions(sinks.keySet(), cellPartitions);
        consumer.assign(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(partitions);
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata offset = committed.get(tp);
            if (offset == null) {
                consumer.seekToEnd(List.of(tp));
            } else {
                consumer.seek(tp, offset.offset());
            }
            consumer.position(tp);
        }
        log.info("work-intake-assigned cells={} partitions={}", sinks.size(), partitions.size());
    }

    static Set<TopicPartition> partitions(Set<String> cellIds, int cellPartitions) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (String cellId : cellIds) {
            int p = CellPartitions.partitionFor(cellId, cellPartitions);
            partitions.add(new TopicPartition(Topics.AUCTION_RESULTS, p));
            partitions.add(new TopicPartition(Topics.STOP_REQUESTS, p));
        }
        return partitions;
    }

    public void start() {
        running = true;
        thread = new Thread(this::loop, "rep-work-intake");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(500));
                records.forEach(this::dispatch);
                if (!records.isEmpty()) {
                    consumer.commitAsync();
                }
            }
        } catch (WakeupException e) {
            // close() asked us to stop
        } catch (RuntimeException e) {
            log.error("work-intake-failed", e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private void dispatch(ConsumerRecord<String, String> record) {
        WorkSink sink = sinks.get(record.key());
        if (sink == null) {
            return;
        }
        try {
            if (Topics.AUCTION_RESULTS.equals(record.topic())) {
                LrpsPlaced placed = Json.read(record.value(), LrpsPlaced.class);
                if (sinks.get(placed.cellId()) == sink) {
                    sink.placed(placed.placements());
                }
            } else {
                LrpStopRequested stop = Json.read(record.value(), LrpStopRequested.class);
                if (sinks.get(stop.cellId()) == sink) {
                    sink.stopRequested(stop);
                }
            }
        } catch (RuntimeException e) {
            log.warn("work-message-unreadable topic={} partition={} offset={}", record.topic(), record.partition(),
                    record.offset(), e);
        }
    }

    @Override
    public void close() {
        running = false;
        if (thread == null) {
            consumer.close(Duration.ofSeconds(2));
            return;
        }
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
