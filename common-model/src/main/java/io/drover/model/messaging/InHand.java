package io.drover.model.messaging;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link TopicReader} may commit: per partition, everything handed over to its handler, except from the lowest
 * offset the handler still holds (kept and not done yet, see {@link TopicReader#keep}) on. A record kept by the handler
 * is committed only once it and every record before it in its partition are done, so a consumer that stops with work
 * in hand (killed, closed) leaves it to be read again by the next one of its group.
 *
 * <p>{@link #keep} and the {@link TopicReader.Kept#done()} it returns may be called from any thread; the rest only from
 * the reader's.
 */
final class InHand {

    private static final Logger log = LoggerFactory.getLogger(InHand.class);
    /** How long a reader that stops waits to commit what its handler finished. */
    private static final Duration BEFORE_CLOSING_TIMEOUT = Duration.ofSeconds(2);

    private final Map<TopicPartition, NavigableSet<Long>> kept = new ConcurrentHashMap<>();
    /** Per partition, the offset after the last record handed over (the reader's thread only). */
    private final Map<TopicPartition, Long> handedOver = new HashMap<>();
    /** Per partition, the offset committed last (the reader's thread only). */
    private final Map<TopicPartition, Long> committed = new HashMap<>();

    /** The handler holds on to {@code record}: it stays uncommitted until the returned {@code done} ran. */
    TopicReader.Kept keep(ConsumerRecord<?, ?> record) {
        NavigableSet<Long> offsets = kept.computeIfAbsent(partition(record), p -> new ConcurrentSkipListSet<>());
        long offset = record.offset();
        offsets.add(offset);
        return () -> offsets.remove(offset);
    }

    /** The handler returned from {@code batch}: what it did not keep is done. */
    void handedOver(List<? extends ConsumerRecord<?, ?>> batch) {
        batch.forEach(r -> handedOver.merge(partition(r), r.offset() + 1, Math::max));
    }

    /** A batch given up: whatever the handler kept of it is let go, so it does not hold its partition back forever. */
    void forget(Collection<? extends ConsumerRecord<?, ?>> batch) {
        batch.forEach(r -> {
            NavigableSet<Long> offsets = kept.get(partition(r));
            if (offsets != null) {
                offsets.remove(r.offset());
            }
        });
    }

    /** Per partition whose committable offset moved past the last commit, that offset. */
    Map<TopicPartition, OffsetAndMetadata> toCommit() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        handedOver.forEach((tp, next) -> {
            NavigableSet<Long> held = kept.get(tp);
            Long lowest = held == null ? null : held.ceiling(Long.MIN_VALUE); // null when empty, even if it just emptied
            long committable = lowest == null ? next : Math.min(lowest, next);
            if (committable > committed.getOrDefault(tp, -1L)) {
                offsets.put(tp, new OffsetAndMetadata(committable));
            }
        });
        return offsets;
    }

    /** Commits whatever became committable since the last commit (on the reader's consumer, so its thread). */
    void commit(Consumer<?, ?> consumer) {
        Map<TopicPartition, OffsetAndMetadata> offsets = toCommit();
        if (!offsets.isEmpty()) {
            consumer.commitSync(offsets);
            committed(offsets);
        }
    }

    /**
     * The work done since the last poll, committed before the consumer closes (else the next reader of the group reads
     * it again: harmless, every consumer is idempotent, but avoidable). A wake-up that {@code close()} sent while the
     * handler ran is still pending and fails the first attempt; the commit has a short bound; work in hand stays
     * uncommitted.
     */
    void commitBeforeClosing(Consumer<?, ?> consumer, String reader) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                Map<TopicPartition, OffsetAndMetadata> offsets = toCommit();
                if (!offsets.isEmpty()) {
                    consumer.commitSync(offsets, BEFORE_CLOSING_TIMEOUT);
                    committed(offsets);
                }
                return;
            } catch (WakeupException e) {
                // the wake-up close() sent, now consumed: once more
            } catch (KafkaException e) {
                log.warn("topic-reader-commit-before-closing-failed reader={} cause=\"{}\"", reader, e.toString());
                return;
            }
        }
    }

    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((tp, o) -> committed.put(tp, o.offset()));
    }

    private static TopicPartition partition(ConsumerRecord<?, ?> record) {
        return new TopicPartition(record.topic(), record.partition());
    }
}
