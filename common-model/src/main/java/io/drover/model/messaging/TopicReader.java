package io.drover.model.messaging;

import io.drover.model.time.Instants;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Drover's one way to consume Kafka: a thread of its own that {@code assign}s itself the partitions it is told (no
 * group membership, no rebalancing, so a new leader or a restarted rep reads at once), positions itself once the broker
 * answers (retrying meanwhile, so a service starts while Kafka is down), hands every poll to its handler as one batch of
 * raw records and, when it has a group id, commits the batch's offsets after the handler returned (at least once). A
 * handler that only queues work for later may {@link #keep} a record: its offset is then committed once the work is
 * done ({@link Kept#done()}) and every record before it in its partition is too.
 * A handler that throws gets the same batch again after a pause, up to {@code retries} times, then the batch is
 * skipped with an error: every Drover consumer is idempotent and the loops repair what is skipped.
 *
 * <p>Values stay bytes (the relay sent them as bytes); a handler parses only what it needs.
 */
public final class TopicReader implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicReader.class);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Duration THROUGH_EVERY = Duration.ofMillis(250);
    private static final Duration THROUGH_TIMEOUT = Duration.ofMillis(500);
    /** How long an idle reader's look waits for its partitions' ends before it tries again at the next look. */
    private static final Duration RESUME_TIMEOUT = Duration.ofSeconds(2);
    /** How long {@link #close()} waits for the batch in hand to be handled. */
    private static final Duration CLOSE_WAIT = Duration.ofMinutes(2);

    /** Where a reader starts in a partition. */
    public enum StartAt {
        /** The end: only what is written from now on (live feeds). */
        LATEST,
        /** The group's committed offset, or the beginning when there is none. */
        COMMITTED_OR_EARLIEST,
        /** The group's committed offset, or the first record written since {@link Settings#since()}, or the end. */
        COMMITTED_OR_SINCE
    }

    /**
     * What a reader needs; {@code groupId} null means it commits nothing. A batch whose handler throws is handed over
     * again up to {@code retries} times, except a failure of {@code retriedUntilStopped} (may be null), which is retried
     * until the reader stops, so its offsets are never committed (e.g. a deposed leader's fenced writes: the next
     * leader takes the batch).
     */
    public record Settings(String name, String groupId, StartAt startAt, Instant since, int maxPollRecords,
            Duration pollTimeout, int retries, Class<? extends RuntimeException> retriedUntilStopped) {

        public Settings {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(startAt, "startAt");
            if (startAt != StartAt.LATEST && groupId == null) {
                throw new IllegalArgumentException(name + ": a reader that resumes from commits needs a group id");
            }
        }

        public Settings(String name, String groupId, StartAt startAt, Instant since, int maxPollRecords,
                Duration pollTimeout, int retries) {
            this(name, groupId, startAt, since, maxPollRecords, pollTimeout, retries, null);
        }
    }

    /** Handles one poll's records. */
    @FunctionalInterface
    public interface Handler {
        void handle(List<ConsumerRecord<String, byte[]>> records);
    }

    /** A record the handler holds on to (see {@link #keep}): {@link #done()} once its work is finished. */
    @FunctionalInterface
    public interface Kept {
        /** The record's work is finished; its offset may be committed. Idempotent; any thread. */
        void done();
    }

    /** Runs after every poll, records or not, told how far the reader has got (see {@link #through()}; may be null). */
    @FunctionalInterface
    public interface AfterPoll {
        AfterPoll NOTHING = through -> {
        };

        void polled(Instant through);
    }

    private final ConsumerFactory<?, ?> factory;
    private final Settings settings;
    private final Function<Consumer<String, byte[]>, Collection<TopicPartition>> partitions;
    private final Handler handler;
    private final AfterPoll afterPoll;
    private volatile Consumer<String, byte[]> consumer;
    private volatile Thread thread;
    private volatile CountDownLatch closed = new CountDownLatch(0);
    private volatile boolean running;
    private volatile boolean positioned;
    private volatile int positionAttempts;
    /** Per partition, the write time of the newest record handled (the reader's thread only). */
    private final Map<TopicPartition, Instant> handledThrough = new HashMap<>();
    private volatile Instant through;
    private volatile boolean tracksThrough;
    private volatile Consumer<String, byte[]> endsConsumer;
    private long nextThroughNanos;
    /** See {@link #idleWhile}: null for a reader that always reads. */
    private volatile BooleanSupplier idle;
    /** Whether the reader's last look found someone to read for and its partitions resumed (idle readers only). */
    private volatile boolean reading;
    private final Object looked = new Object();
    private long looks;
    private boolean resumeWarned;
    private final AtomicLong handedOver = new AtomicLong();
    /** What may be committed; a fresh one per run, so a run's leftovers never hold the next one back. */
    private volatile InHand inHand = new InHand();

    /**
     * @param partitions what to read, asked of the consumer once the broker answers (e.g. every partition of a topic)
     * @param afterPoll run after every poll, records or not (e.g. reporting how far the reader got)
     */
    public TopicReader(ConsumerFactory<?, ?> factory, Settings settings,
            Function<Consumer<String, byte[]>, Collection<TopicPartition>> partitions, Handler handler,
            AfterPoll afterPoll) {
        this.factory = factory;
        this.settings = settings;
        this.partitions = partitions;
        this.handler = handler;
        this.afterPoll = afterPoll;
    }

    /**
     * Every partition of {@code topic}, as the broker knows them. A topic has at least one: none means it is not created
     * yet (services starting together, one creating the topics another reads) or its metadata has not reached the
     * broker, and the reader positions again a moment later rather than sit on no partition for good.
     */
    public static Function<Consumer<String, byte[]>, Collection<TopicPartition>> allOf(String topic) {
        return c -> {
            List<TopicPartition> all = c.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            if (all.isEmpty()) {
                throw new UnknownTopicOrPartitionException("no partition of " + topic + " known yet");
            }
            return all;
        };
    }

    /**
     * Makes this reader fetch nothing while {@code idle} holds: its partitions are paused, so its polls send no fetch
     * and the broker serves it nothing. Once {@code idle} no longer holds, it moves to the end of its partitions and
     * reads on from there (see {@link #awaitReading}). For a live feed that nobody listens to, which would otherwise
     * fetch every record of its topic to throw it away. Only for a reader that commits nothing. Call before
     * {@link #start()}.
     */
    public TopicReader idleWhile(BooleanSupplier idle) {
        if (settings.groupId() != null) {
            throw new IllegalStateException(settings.name() + ": a reader with commits cannot skip records");
        }
        this.idle = idle;
        return this;
    }

    /**
     * For someone who just made the {@link #idleWhile} condition false: waits until this reader reads for them, i.e.
     * every record written from now on will be handed over. At once if its last look found someone already (it then
     * reads on without a gap); otherwise until its next look moved it to the end and resumed its partitions, which is
     * within one poll timeout while the broker answers. False if that took longer than {@code wait}.
     */
    public boolean awaitReading(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (looked) {
            if (reading) {
                return true;
            }
            long asked = looks;
            while (!(reading && looks > asked)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(looked, left);
            }
            return true;
        }
    }

    /** For an idle reader ({@link #idleWhile}): whether its last look found someone to read for, and it reads. */
    public boolean isReading() {
        return reading;
    }

    /**
     * For the handler, while it handles {@code record}: it keeps the record's work for later (queued elsewhere), so the
     * record must not be committed before the returned {@link Kept#done()} ran. Until then neither it nor any later
     * record of its partition is committed: a reader closed or killed with work in hand leaves that work to be read
     * again by the next reader of its group. Records the handler does not keep are done when it returns. Only
     * meaningful for a reader with a group id.
     */
    public Kept keep(ConsumerRecord<?, ?> record) {
        return inHand.keep(record);
    }

    /** How many records the handler was handed since the reader was created (a batch handed again counts again). */
    public long handedOver() {
        return handedOver.get();
    }

    /** Starts reading on a thread of its own; a reader that was closed can be started again. */
    public synchronized void start() {
        if (running) {
            return;
        }
        Properties overrides = new Properties();
        overrides.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        overrides.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                settings.startAt() == StartAt.COMMITTED_OR_EARLIEST ? "earliest" : "latest");
        overrides.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(settings.maxPollRecords()));
        overrides.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, org.apache.kafka.common.serialization
                .StringDeserializer.class.getName());
        overrides.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        @SuppressWarnings("unchecked")
        Consumer<String, byte[]> created = (Consumer<String, byte[]>) factory.createConsumer(settings.groupId(),
                settings.name(), null, overrides);
        consumer = created;
        if (tracksThrough) {
            // the ends are asked on a connection of their own: on the reader's, the question would queue at the
            // broker behind a fetch parked there for up to fetch.max.wait
            Properties plain = new Properties();
            plain.putAll(overrides);
            @SuppressWarnings("unchecked")
            Consumer<String, byte[]> asker = (Consumer<String, byte[]>) factory.createConsumer(null,
                    settings.name() + "-ends", null, plain);
            endsConsumer = asker;
        }
        positioned = false;
        reading = false;
        inHand = new InHand();
        closed = new CountDownLatch(1);
        running = true;
        Thread t = new Thread(this::loop, settings.name());
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** Whether the reader was started and not closed since. */
    public boolean isRunning() {
        return running;
    }

    /** Whether the reader has found where to read from (false while the broker is unreachable at start-up). */
    public boolean positioned() {
        return positioned;
    }

    public int positionAttempts() {
        return positionAttempts;
    }

    /**
     * Makes this reader measure how far it has got ({@link #through()}), at the cost of a second connection to the
     * broker and one request on it (the partitions' end offsets) at most four times a second (twice while idle: a poll
     * that returns nothing waits its timeout). Call before
     * {@link #start()}.
     */
    public TopicReader trackingThrough() {
        tracksThrough = true;
        return this;
    }

    /**
     * How far this reader has got, in the time its records were written (the relay stamps each record with the time
     * its row was written): every record of its partitions written before the instant returned has been handled. At
     * most four times a second, after a batch was handled or a poll returned nothing, the reader asks the broker for
     * its partitions' ends: a partition read to its end counts as handled through the moment of that question; one
     * with records still to read, through the newest record handled from it. (The consumer's own lag is no measure: it
     * is as of the last fetch, which may have been sent long before a slow batch ended.) Null unless
     * {@link #trackingThrough()}, until every partition is known, and while the broker does not answer.
     */
    public Instant through() {
        return through;
    }

    private void loop() {
        Consumer<String, byte[]> c = consumer;
        try {
            if (!position(c)) {
                return;
            }
            Consumer<String, byte[]> asker = endsConsumer;
            if (asker != null) {
                // assigned (it never polls) so that the broker's answers update its partitions' high watermarks
                // instead of each being logged as a warning about a partition "no longer assigned"
                asker.assign(c.assignment());
            }
            while (running) {
                lookWhetherIdle(c);
                pollOnce(c);
                afterPoll.polled(through);
            }
        } catch (WakeupException e) {
            // close() asked us to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("topic-reader-failed reader={}", settings.name(), e);
        } finally {
            if (positioned && settings.groupId() != null) {
                inHand.commitBeforeClosing(c, settings.name());
            }
            // Nothing is left to commit and no group to leave (partitions are assigned): a timeout would only let the
            // consumer tell the broker its fetch session ended, a request queued behind the fetch still waiting there
            // (up to fetch.max.wait, 5 s in the local cluster).
            c.close(Duration.ZERO);
            Consumer<String, byte[]> asker = endsConsumer;
            if (asker != null) {
                asker.close(Duration.ZERO);
                endsConsumer = null;
            }
        }
    }

    /** Retries positioning until it succeeds (each attempt waits up to the consumer's API timeout); false if closed. */
    private boolean position(Consumer<String, byte[]> c) throws InterruptedException {
        boolean warned = false;
        while (running) {
            try {
                positionAttempts++;
                positionOnce(c);
                positioned = true;
                log.info("topic-reader-positioned reader={} partitions={}", settings.name(), c.assignment().size());
                return true;
            } catch (KafkaException e) {
                if (e instanceof WakeupException) {
                    throw e;
                }
                if (!warned) {
                    log.warn("topic-reader-positioning-failed reader={} cause=\"{}\" (will retry)", settings.name(),
                            e.toString());
                    warned = true;
                }
                closed.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        return false;
    }

    private void positionOnce(Consumer<String, byte[]> c) {
        List<TopicPartition> assigned = List.copyOf(partitions.apply(c));
        c.assign(assigned);
        if (settings.startAt() == StartAt.LATEST) {
            c.seekToEnd(assigned);
            assigned.forEach(c::position); // resolve now, so "latest" means the end at start-up, not at first fetch
            return;
        }
        if (settings.startAt() == StartAt.COMMITTED_OR_SINCE) {
            seekSince(c, assigned);
        }
    }

    /**
     * Committed offsets where there are some; elsewhere the first record stamped at or after {@code since}, or, if
     * there is none yet, the end as it was before that was looked up.
     */
    private void seekSince(Consumer<String, byte[]> c, List<TopicPartition> assigned) {
        Map<TopicPartition, OffsetAndMetadata> committed = c.committed(new java.util.HashSet<>(assigned));
        List<TopicPartition> fresh = assigned.stream().filter(tp -> committed.get(tp) == null).toList();
        if (fresh.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> ends = c.endOffsets(fresh);
        Map<TopicPartition, Long> times = new HashMap<>();
        fresh.forEach(tp -> times.put(tp, settings.since().toEpochMilli()));
        Map<TopicPartition, OffsetAndTimestamp> found = c.offsetsForTimes(times);
        for (TopicPartition tp : fresh) {
            OffsetAndTimestamp first = found.get(tp);
            c.seek(tp, first != null ? first.offset() : ends.get(tp));
        }
    }

    /**
     * For an idle reader: pauses its partitions when nobody needs it; when somebody does again, moves to their end (as
     * it is now) and resumes them. A broker that does not answer leaves it paused until the next look.
     */
    private void lookWhetherIdle(Consumer<String, byte[]> c) {
        BooleanSupplier condition = idle;
        if (condition == null) {
            return;
        }
        boolean nowReading = reading;
        try {
            if (condition.getAsBoolean()) {
                c.pause(c.assignment());
                nowReading = false;
            } else if (!nowReading) {
                var assigned = c.assignment();
                c.seekToEnd(assigned);
                assigned.forEach(tp -> c.position(tp, RESUME_TIMEOUT)); // the end as of now, not of the next fetch
                c.resume(assigned);
                nowReading = true;
                resumeWarned = false;
            }
        } catch (KafkaException e) {
            if (e instanceof WakeupException) {
                throw e;
            }
            if (!resumeWarned) {
                log.warn("topic-reader-resume-failed reader={} cause=\"{}\" (will retry)", settings.name(),
                        e.toString());
                resumeWarned = true;
            }
        }
        synchronized (looked) {
            reading = nowReading;
            looks++;
            looked.notifyAll();
        }
    }

    /**
     * One poll and its batch, then the commit of what is done (the batch, but for what the handler keeps; work kept
     * earlier and done since); a failure other than being woken up is logged and retried a second later.
     */
    private void pollOnce(Consumer<String, byte[]> c) throws InterruptedException {
        try {
            ConsumerRecords<String, byte[]> records = c.poll(settings.pollTimeout());
            if (!records.isEmpty()) {
                List<ConsumerRecord<String, byte[]>> batch = new ArrayList<>(records.count());
                records.forEach(batch::add);
                if (!handle(batch)) {
                    return;
                }
                inHand.handedOver(batch);
                batch.forEach(r -> handledThrough.merge(new TopicPartition(r.topic(), r.partition()),
                        Instant.ofEpochMilli(r.timestamp()), Instants::later));
            }
            if (settings.groupId() != null) {
                inHand.commit(c);
            }
            if (tracksThrough && System.nanoTime() - nextThroughNanos >= 0) {
                nextThroughNanos = System.nanoTime() + THROUGH_EVERY.toNanos();
                through = through(c);
            }
        } catch (WakeupException e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("topic-reader-poll-failed reader={} (retrying in 1 s)", settings.name(), e);
            closed.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The oldest of the partitions' progress (see {@link #through()}): the ends are asked after everything polled so far
     * was handled, so a partition whose position reached its end has handled every record written before the question.
     */
    private Instant through(Consumer<String, byte[]> c) {
        Instant asked = Instant.now();
        try {
            Instant oldest = null;
            for (Map.Entry<TopicPartition, Long> end : endsConsumer.endOffsets(c.assignment(), THROUGH_TIMEOUT)
                    .entrySet()) {
                TopicPartition tp = end.getKey();
                Instant partition = c.position(tp, THROUGH_TIMEOUT) >= end.getValue() ? asked : handledThrough.get(tp);
                if (partition == null) {
                    return null;
                }
                oldest = Instants.earlier(oldest, partition);
            }
            return oldest;
        } catch (KafkaException e) {
            if (e instanceof WakeupException) {
                throw e;
            }
            // the broker did not answer in time, or a fresh reader's position is not known yet (its first look-up
            // of committed offsets under way): stay where we were
            return through;
        }
    }

    /** Hands the batch over until it is handled or given up; false when the reader stopped first (commit nothing). */
    private boolean handle(List<ConsumerRecord<String, byte[]>> batch) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            try {
                handedOver.addAndGet(batch.size());
                handler.handle(batch);
                return true;
            } catch (RuntimeException e) {
                if (!running) {
                    return false;
                }
                boolean untilStopped = settings.retriedUntilStopped() != null
                        && settings.retriedUntilStopped().isInstance(e);
                if (attempt >= settings.retries() && !untilStopped) {
                    log.error("topic-reader-batch-skipped reader={} records={} after={} attempts", settings.name(),
                            batch.size(), attempt + 1, e);
                    inHand.forget(batch);
                    return true;
                }
                log.warn("topic-reader-batch-failed reader={} records={} cause=\"{}\" (retrying)", settings.name(),
                        batch.size(), e.toString());
                closed.await(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    /**
     * Stops the thread (waking a poll or a positioning retry; a batch in hand is finished, but not committed if it
     * failed) and closes the consumer; {@link #start()} may follow.
     */
    @Override
    public synchronized void close() {
        running = false;
        closed.countDown();
        Consumer<String, byte[]> c = consumer;
        Thread t = thread;
        if (c != null) {
            c.wakeup();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                log.warn("topic-reader-close-timed-out reader={} (its handler is still running)", settings.name());
            }
        }
        thread = null;
        consumer = null;
    }
}
