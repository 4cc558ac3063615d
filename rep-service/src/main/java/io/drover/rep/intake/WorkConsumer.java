package io.drover.rep.intake;

import io.drover.model.json.Json;
import io.drover.model.messaging.CellPartitions;
import io.drover.model.messaging.LrpStopRequested;
import io.drover.model.messaging.LrpsPlaced;
import io.drover.model.messaging.TaskCancelRequested;
import io.drover.model.messaging.TasksPlaced;
import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Reads the work of this process's cells, and nothing else: it reads exactly the partitions its cell ids hash to of the
 * auction results ({@link LrpsPlaced}, {@link TasksPlaced}) and stop requests ({@link LrpStopRequested},
 * {@link TaskCancelRequested}), tells the kinds apart by their message type header, and hands each message to the cell
 * it names; messages of other cells sharing a partition are skipped. It resumes from the committed offsets, or, for a
 * partition with none (a new cell), from the first record written since shortly before this intake was created, which
 * is before the cell first announces itself, so nothing placed on it is missed. It starts while Kafka is down and takes
 * work once it is back (see {@link TopicReader}).
 *
 * <p>A message's offset is committed only once its cell has handled it (claimed or rejected its placements, stopped its
 * instance or task) and every message before it in its partition is handled too ({@link TopicReader#keep}): a rep
 * killed with work queued on its cells reads that work again when it comes back, instead of losing it until the
 * converger's repair 30 s or more later.
 *
 * <p>A record without a type header was written before message types (issue 35) and is read in its topic's original
 * shape, tasks included (a task placement in {@code LrpsPlaced.tasks}, a task cancel as an {@code LrpStopRequested}
 * with a {@code task_guid}): such records may still sit in the topics while a cluster upgrades. A type this rep does
 * not know (a later version's) is skipped.
 */
public final class WorkConsumer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkConsumer.class);

    /**
     * Records are stamped with the time their rows were written, by the writers' clocks: look this much further back
     * for a new cell's first record (a cell is only ever placed on after it announced itself, which is after this).
     */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    private final Map<String, ? extends WorkSink> sinks;
    private final TopicReader reader;

    /** Create it before the cells announce themselves; {@link #start()} positions it and begins reading. */
    public WorkConsumer(ConsumerFactory<?, ?> factory, String groupId, int cellPartitions,
            Map<String, ? extends WorkSink> sinks, Clock clock) {
        this.sinks = sinks;
        Set<TopicPartition> partitions = partitions(sinks.keySet(), cellPartitions);
        this.reader = new TopicReader(factory, new TopicReader.Settings("rep-work-intake", groupId,
                TopicReader.StartAt.COMMITTED_OR_SINCE, clock.instant().minus(CLOCK_SKEW), 2_000,
                Duration.ofMillis(500), 0), c -> partitions, this::dispatch, TopicReader.AfterPoll.NOTHING)
                .trackingThrough();
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
        reader.start();
    }

    /** Whether the intake has found where to read from (false while the broker is unreachable at start-up). */
    boolean positioned() {
        return reader.positioned();
    }

    int positionAttempts() {
        return reader.positionAttempts();
    }

    /**
     * Every message of this process's cells written before this instant has been handed to its cell (null until the
     * intake can say): the first half of a cell's {@code placements_through} (see {@link TopicReader#through()}).
     */
    public Instant through() {
        return reader.through();
    }

    private void dispatch(List<ConsumerRecord<String, byte[]>> records) {
        records.forEach(this::dispatch);
    }

    /** Hands one record to the cell it names; a record the cell keeps is committed once the cell ran its done. */
    void dispatch(ConsumerRecord<String, byte[]> record) {
        WorkSink sink = sinks.get(record.key());
        if (sink == null) {
            return;
        }
        String type = messageType(record);
        try {
            switch (type) {
                case LrpsPlaced.TYPE -> {
                    LrpsPlaced placed = Json.read(record.value(), LrpsPlaced.class);
                    if (sinks.get(placed.cellId()) == sink) {
                        placed(sink, placed, record);
                    }
                }
                case TasksPlaced.TYPE -> {
                    TasksPlaced placed = Json.read(record.value(), TasksPlaced.class);
                    if (sinks.get(placed.cellId()) == sink) {
                        sink.tasksPlaced(placed.tasks(), kept(record, 1));
                    }
                }
                case LrpStopRequested.TYPE -> {
                    LrpStopRequested stop = Json.read(record.value(), LrpStopRequested.class);
                    if (sinks.get(stop.cellId()) == sink) {
                        stopRequested(sink, stop, record);
                    }
                }
                case TaskCancelRequested.TYPE -> {
                    TaskCancelRequested cancel = Json.read(record.value(), TaskCancelRequested.class);
                    if (sinks.get(cancel.cellId()) == sink) {
                        sink.taskCancelled(cancel.taskGuid(), kept(record, 1));
                    }
                }
                default -> log.debug("work-message-type-unknown topic={} partition={} offset={} type={}",
                        record.topic(), record.partition(), record.offset(), type);
            }
        } catch (RuntimeException e) {
            log.warn("work-message-unreadable topic={} partition={} offset={} type={}", record.topic(),
                    record.partition(), record.offset(), type, e);
        }
    }

    /** The record's type header, or for a record without one (written before types) its topic's original type. */
    static String messageType(ConsumerRecord<String, byte[]> record) {
        Header header = record.headers().lastHeader(Topics.MESSAGE_TYPE_HEADER);
        if (header != null) {
            return new String(header.value(), StandardCharsets.UTF_8);
        }
        return Topics.AUCTION_RESULTS.equals(record.topic()) ? LrpsPlaced.TYPE : LrpStopRequested.TYPE;
    }

    @SuppressWarnings("deprecation") // the tasks of an auction result written before TasksPlaced
    private void placed(WorkSink sink, LrpsPlaced placed, ConsumerRecord<String, byte[]> record) {
        boolean instances = !placed.placements().isEmpty();
        boolean tasks = !placed.tasks().isEmpty();
        Runnable done = kept(record, (instances ? 1 : 0) + (tasks ? 1 : 0));
        if (instances) {
            sink.placed(placed.placements(), Instant.ofEpochMilli(record.timestamp()), done);
        }
        if (tasks) {
            sink.tasksPlaced(placed.tasks(), done);
        }
    }

    @SuppressWarnings("deprecation") // a task's cancel written before TaskCancelRequested
    private void stopRequested(WorkSink sink, LrpStopRequested stop, ConsumerRecord<String, byte[]> record) {
        if (stop.isForTask()) {
            sink.taskCancelled(stop.taskGuid(), kept(record, 1));
        } else {
            sink.stopRequested(stop, kept(record, 1));
        }
    }

    /**
     * Keeps the record until its cell has handled each of its {@code parts} (each part's sink runs the returned done
     * once); a record with no part is not kept.
     */
    private Runnable kept(ConsumerRecord<String, byte[]> record, int parts) {
        return parts == 0 ? () -> {
        } : Parts.of(parts, reader.keep(record)::done);
    }

    @Override
    public void close() {
        reader.close();
    }
}
