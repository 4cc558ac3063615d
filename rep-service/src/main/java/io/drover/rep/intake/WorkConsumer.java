package io.drover.rep.intake;

import io.drover.model.json.Json;
import io.drover.model.messaging.CellPartitions;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.Topics;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Reads the auction results and stop requests of this process's cells, and nothing else: it {@code assign}s itself
 * exactly the partitions its cell ids hash to (no group membership, no rebalancing) and hands each message to the cell
 * it names; messages of other cells sharing a partition are skipped. It resumes from the committed offsets, or, for a
 * partition with none (a new cell), from the first record written since shortly before this intake was created,
 * which is before the cell first announces itself, so nothing placed on it is missed. Positioning happens on the
 * intake's own thread and is retried until the broker answers: a rep starts, adopts and heartbeats while Kafka is
 * down, and takes work once it is back. Offsets are committed once messages are queued with their cells; one lost on
 * a crash is repaired by the converger.
 */
public final class WorkConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkConsumer.class);

    /** Records are stamped by their producers' clocks: look this much further back for a new cell's first record. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

    private final Consumer<String, String> consumer;
    private final Map<String, ? extends WorkSink> sinks;
    private final Set<TopicPartition> partitions;
    private final Instant createdAt;
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile boolean running;
    private volatile boolean positioned;
    private volatile int positionAttempts;
    private Thread thread;

    /**
     * Assigns the consumer its partitions, without talking to the broker yet; {@link #start()} positions it and begins
     * reading. Create it before the cells announce themselves.
     */
    public WorkConsumer(ConsumerFactory<String, String> factory, String groupId, int cellPartitions,
            Map<String, ? extends WorkSink> sinks, Clock clock) {
        this.sinks = sinks;
        this.createdAt = clock.instant();
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        this.consumer = factory.createConsumer(groupId, "rep", null, overrides);
        this.partitions = partitions(sinks.keySet(), cellPartitions);
        consumer.assign(partitions);
    }

    /**
     * Retries {@link #positionOnce()} until it succeeds (each attempt waits up to the consumer's
     * {@code default.api.timeout.ms}); false if closed first.
     */
    private boolean position() throws InterruptedException {
        boolean warned = false;
        while (running) {
            try {
                positionAttempts++;
                positionOnce();
                positioned = true;
                log.info("work-intake-assigned cells={} partitions={}", sinks.size(), partitions.size());
                return true;
            } catch (KafkaException e) {
                if (e instanceof WakeupException) {
                    throw e;
                }
                if (!warned) {
                    log.warn("work-intake-positioning-failed cause=\"{}\" (will retry)", e.toString());
                    warned = true;
                }
                closed.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        return false;
    }

    /**
     * Committed offsets where there are some; elsewhere the first record stamped after {@code createdAt} minus
     * {@link #CLOCK_SKEW}, or, if there is none yet, the end as it was before that was looked up (re-reading a few
     * older records is harmless: every message is idempotent for the rep).
     */
    private void positionOnce() {
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(partitions);
        List<TopicPartition> fresh = partitions.stream().filter(tp -> committed.get(tp) == null).toList();
        Map<TopicPartition, Long> ends = fresh.isEmpty() ? Map.of() : consumer.endOffsets(fresh);
        long since = createdAt.minus(CLOCK_SKEW).toEpochMilli();
        Map<TopicPartition, Long> times = new HashMap<>();
        fresh.forEach(tp -> times.put(tp, since));
        Map<TopicPartition, OffsetAndTimestamp> found = fresh.isEmpty() ? Map.of() : consumer.offsetsForTimes(times);
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata offset = committed.get(tp);
            OffsetAndTimestamp first = found.get(tp);
            consumer.seek(tp, offset != null ? offset.offset() : first != null ? first.offset() : ends.get(tp));
        }
    }

    /** Whether the intake has found where to read from (false while the broker is unreachable at start-up). */
    boolean positioned() {
        return positioned;
    }

    int positionAttempts() {
        return positionAttempts;
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
            if (!position()) {
                return;
            }
            while (running) {
                pollOnce();
            }
        } catch (WakeupException e) {
            // close() asked us to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("work-intake-failed", e);
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** One poll; a failure other than being woken up is logged and retried a second later, never ends the intake. */
    private void pollOnce() throws InterruptedException {
        try {
            var records = consumer.poll(Duration.ofMillis(500));
            records.forEach(this::dispatch);
            if (!records.isEmpty()) {
                consumer.commitAsync();
            }
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("work-intake-poll-failed (retrying in 1 s)", e);
            Thread.sleep(1_000);
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
        closed.countDown();
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
