package io.drover.model.messaging;

import io.drover.model.planted.PlantedBug;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves committed rows of the outbox (commands) and of {@code lrp_events} (lifecycle events) to Kafka, by cursor: one
 * batch = one short transaction that reads the settled rows after each table's cursor (see {@link RelaySource}), sends
 * them in cursor order (the idempotent producer keeps that order per partition, hence per key), waits for the
 * broker's acknowledgement and moves the cursors. Nothing is updated per message: a batch writes two cursor rows. When
 * Kafka is down the transaction rolls back and the cursors stay; rows may then be sent twice, always with the same
 * message or event id, which consumers tolerate.
 *
 * <p>Every service runs a relay, but only one relays at a time: a batch first takes a transaction-scoped advisory lock
 * ({@link #RELAY_LOCK}). A relay that finds the lock taken becomes a standby: every {@code standbyInterval} it looks
 * at the relay's progress, and only when rows have waited {@code takeoverAfter} without the cursors moving (the active
 * relay is gone or stuck) does it compete again, so one relay stays active instead of the relays of every service taking turns. The active one is
 * woken by PostgreSQL notifications ({@link RelayListener}) and by commits in its own JVM, and polls every
 * {@code pollInterval} when nothing happens, so an idle cluster costs next to nothing.
 *
 * <p>This transaction is the one place where Kafka I/O happens while a database transaction is open; it holds no row
 * lock and no transaction id (only reads and an advisory lock) until the cursors move after the acknowledgement.
 */
public class OutboxRelay implements SmartLifecycle {

    /**
     * Where the relays stand (read by a relay on standby): both cursors, and " waiting" when rows wait after them.
     * Each "first row after the cursor" is an {@code ORDER BY ... LIMIT 1} on the relay index: written as
     * {@code EXISTS}, PostgreSQL planned a sequential scan of the whole table, 50-130 ms a call at 100,000 events with
     * nothing waiting, paid by every relay on standby every standby interval (0.1-0.3 ms now; {@code MigrationIT}
     * checks the plan).
     */
    public static final String PROGRESS = """
            SELECT string_agg(c.source || ':' || c.tx_id::text || '/' || c.id, ',' ORDER BY c.source)
                || CASE WHEN (SELECT o.id FROM outbox o
                              WHERE (o.tx_id, o.id) > (SELECT tx_id, id FROM relay_cursors WHERE source = 'outbox')
                              ORDER BY o.tx_id, o.id LIMIT 1) IS NOT NULL
                          OR (SELECT e.id FROM lrp_events e
                              WHERE (e.tx_id, e.id) > (SELECT tx_id, id FROM relay_cursors
                                                       WHERE source = 'lrp_events')
                              AND e.payload IS NOT NULL ORDER BY e.tx_id, e.id LIMIT 1) IS NOT NULL
                        THEN ' waiting' ELSE '' END
            FROM relay_cursors c""";

    /**
     * The oldest transaction holding a transaction id, which every row committed after it began waits for (a row is
     * relayed once no transaction that could still commit a row before it runs): what a held-back warning names.
     */
    static final String OLDEST_TRANSACTION = """
            SELECT format('pid=%s application=%s state=%s age_s=%s query="%s"', pid, application_name, state,
                          round(extract(epoch FROM now() - xact_start)::numeric, 1),
                          replace(left(query, 200), '"', ''''))
            FROM pg_stat_activity WHERE backend_xid IS NOT NULL ORDER BY age(backend_xid) DESC LIMIT 1""";

    /** The longest a relay held back waits before it looks again (see {@link #heldBackRetry}). */
    static final Duration LONGEST_HELD_BACK_RETRY = Duration.ofSeconds(1);

    /** The PostgreSQL advisory lock key ({@code pg_advisory_xact_lock}) held by the relay that is sending a batch. */
    public static final long RELAY_LOCK = 0x44524f5645524f42L;

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final KafkaTemplate<String, byte[]> kafka;
    private final DataSource dataSource;
    private final OutboxSignal signal;
    private final Clock clock;
    private final OutboxProperties properties;
    private final Counter sent;
    private final Timer delay;
    private volatile Thread thread;
    private volatile boolean running;
    private RelayListener listener;

    public OutboxRelay(JdbcTemplate jdbc, TransactionTemplate tx, KafkaTemplate<String, byte[]> kafka,
            OutboxSignal signal, Clock clock, OutboxProperties properties, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.kafka = kafka;
        this.dataSource = jdbc.getDataSource();
        this.signal = signal;
        this.clock = clock;
        this.properties = properties;
        this.sent = Counter.builder("drover.outbox.sent").description("messages relayed to Kafka").register(meters);
        this.delay = Timer.builder("drover.outbox.relay.delay")
                .description("how long the oldest row of each relayed batch had waited").register(meters);
        Gauge.builder("drover.outbox.lag.seconds", this, OutboxRelay::lagSeconds)
                .description("age of the oldest row not relayed yet").register(meters);
    }

    @Override
    public void start() {
        running = true;
        Thread t = new Thread(this::loop, "outbox-relay");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    @Override
    public void stop() {
        running = false;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        listen(false);
        // the relay's producer is its own (a copy of the context's factory, not a bean nothing else closes): without
        // this, every stopped context leaves a producer reconnecting to its broker once a second for the JVM's life
        kafka.getProducerFactory().reset();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void loop() {
        Duration backoff = Duration.ZERO;
        boolean standby = false;
        Stall stalled = new Stall(properties.takeoverAfter());
        HeldBack held = new HeldBack(properties.heldBackWarning());
        while (running) {
            try {
                if (!backoff.isZero()) {
                    Thread.sleep(backoff.toMillis());
                }
                if (standby && !stalled.check(RelaySource.progress(jdbc))) {
                    Thread.sleep(properties.standbyInterval().toMillis());
                    continue;
                }
                Result result = relay();
                held.observe(result.heldBackBy()); // a standby holds nothing back: it read no rows
                backoff = Duration.ZERO;
                standby = result.standby();
                listen(!standby);
                if (standby) {
                    Thread.sleep(properties.standbyInterval().toMillis());
                } else if (!result.full()) {
                    signal.await(result.heldBackBy() != null ? held.retry() : properties.pollInterval());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                backoff = nextBackoff(backoff);
                log.warn("outbox-relay-failed retry_in={} cause={}", backoff, e.toString());
            }
        }
    }

    private synchronized void listen(boolean active) {
        if (active && running && listener == null) {
            listener = new RelayListener(dataSource, signal);
        } else if ((!active || !running) && listener != null) {
            listener.close();
            listener = null;
        }
    }

    private Duration nextBackoff(Duration current) {
        Duration next = current.isZero() ? Duration.ofMillis(100) : current.multipliedBy(2);
        return next.compareTo(properties.maxBackoff()) > 0 ? properties.maxBackoff() : next;
    }

    /** Relays one batch from each table; returns how many rows it sent (0 while another relay holds the lock). */
    public int relayBatch() {
        return relay().sent();
    }

    private Result relay() {
        Result result = tx.execute(status -> {
            if (!Boolean.TRUE.equals(jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class,
                    RELAY_LOCK))) {
                return Result.STANDBY;
            }
            List<RelaySource.Batch> batches = new ArrayList<>(2);
            String heldBackBy = null;
            boolean full = false;
            for (RelaySource source : RelaySource.values()) {
                RelaySource.Batch batch = source.next(jdbc, source.cursor(jdbc), properties.batchSize());
                if (heldBackBy == null) {
                    heldBackBy = batch.heldBackBy();
                }
                full |= batch.rows().size() == properties.batchSize();
                if (!batch.rows().isEmpty()) {
                    batches.add(batch);
                }
            }
            if (!batches.isEmpty()) {
                // the one transaction that waits for Kafka between statements: its own bound, past the send's
                // (every Drover connection ends a transaction idle for 10 s: DroverDefaults)
                jdbc.execute("SET LOCAL idle_in_transaction_session_timeout = '"
                        + properties.sendTimeout().plusSeconds(10).toMillis() + "ms'");
            }
            int count = PlantedBug.OUTBOX_ACK.planted() ? sendCountingFailuresAsSent(batches) : send(batches);
            batches.forEach(b -> b.source().advance(jdbc, b.end()));
            batches.stream().map(RelaySource.Batch::oldest).min(Instant::compareTo)
                    .ifPresent(oldest -> delay.record(Duration.between(oldest, clock.instant())));
            return new Result(count, false, heldBackBy, full);
        });
        sent.increment(result.sent());
        return result;
    }

    /** The planted bug {@link PlantedBug#OUTBOX_ACK}: rows Kafka did not take are passed by the cursor all the same. */
    private int sendCountingFailuresAsSent(List<RelaySource.Batch> batches) {
        try {
            return send(batches);
        } catch (RuntimeException e) {
            return batches.stream().mapToInt(b -> b.rows().size()).sum();
        }
    }

    private int send(List<RelaySource.Batch> batches) {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        long deadline = System.nanoTime() + properties.sendTimeout().toNanos();
        for (RelaySource.Batch batch : batches) {
            for (RelaySource.Row row : batch.rows()) {
                // stamped with the time its row was written, not sent: a consumer's position in time (TopicReader's
                // through) then says which requests it has seen, however far the relay was behind
                ProducerRecord<String, byte[]> record = new ProducerRecord<>(row.topic(), null,
                        row.writtenAt().toEpochMilli(), row.key(), row.payload());
                if (row.type() != null) {
                    record.headers().add(new RecordHeader(batch.source().typeHeader(),
                            row.type().getBytes(StandardCharsets.UTF_8)));
                }
                if (batch.source() == RelaySource.EVENTS) {
                    record.headers().add(new RecordHeader(Topics.EVENT_POSITION_HEADER,
                            EventPosition.of(row.position().txId(), row.position().id()).text().getBytes(StandardCharsets.UTF_8)));
                }
                CompletableFuture<?> ack = kafka.send(record);
                if (ack.isCompletedExceptionally()) {
                    // refused before it was sent (a send that waited max.block.ms for the broker's metadata): the
                    // next would wait as long again, so the attempt ends here, within its bound
                    throw new IllegalStateException("Kafka refused a relayed row", ack.handle((ok, e) -> e).join());
                }
                acks.add(ack);
            }
        }
        if (acks.isEmpty()) {
            return 0;
        }
        // No producer flush(): it waits for every record of the shared producer, unbounded by sendTimeout, for as
        // long as the broker is unreachable (delivery.timeout.ms); linger.ms sends the batch by itself.
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while relaying", e);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka did not acknowledge " + acks.size() + " relayed rows", e);
        }
        return acks.size();
    }

    /** The statements that read each relayed table's next rows (parameters: cursor, limit, cursor), for plan tests. */
    public static List<String> readStatements() {
        return Arrays.stream(RelaySource.values()).map(RelaySource::nextStatement).toList();
    }

    /** Rows written but not relayed yet, over both tables (for tests and tools; it counts, so it is not cheap). */
    public long backlog() {
        long total = 0;
        for (RelaySource source : RelaySource.values()) {
            total += source.backlog(jdbc);
        }
        return total;
    }

    private double lagSeconds() {
        try {
            double lag = 0;
            for (RelaySource source : RelaySource.values()) {
                Timestamp oldest = jdbc.queryForObject(source.oldestWaitingSql(), Timestamp.class);
                if (oldest != null) {
                    lag = Math.max(lag, Duration.between(oldest.toInstant(), clock.instant()).toMillis() / 1000.0);
                }
            }
            return lag;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * How soon a relay held back looks again when nothing wakes it: {@code first}, or a hundredth of how long the rows
     * have waited once that is longer, and at most {@link #LONGEST_HELD_BACK_RETRY}. The transaction the rows wait for
     * may end without writing a row (then no notification wakes the relay), so the relay must look: every
     * {@code first} while a wait is as short as the cluster's own transactions, and with a delay of at most 1 % of the
     * wait once it is longer (a client's transaction left open for minutes costs a look a second, not 200).
     */
    public static Duration heldBackRetry(Duration first, Duration waited) {
        Duration proportional = waited.dividedBy(100);
        Duration retry = proportional.compareTo(first) > 0 ? proportional : first;
        return retry.compareTo(LONGEST_HELD_BACK_RETRY) > 0 ? LONGEST_HELD_BACK_RETRY : retry;
    }

    /** How long a condition has held without a break, by this JVM's monotonic clock. */
    private static final class Lasting {

        private long since = -1;

        /** Nanoseconds the condition has held, this observation included (0 when it does not hold or just began). */
        long observe(boolean holds) {
            long now = System.nanoTime();
            if (!holds) {
                since = -1;
                return 0;
            }
            if (since < 0) {
                since = now;
            }
            return now - since;
        }
    }

    /** Equal progress readings with rows waiting, for longer than {@code limit}. */
    private static final class Stall {

        private final long limitNanos;
        private final Lasting same = new Lasting();
        private String last;

        Stall(Duration limit) {
            this.limitNanos = limit.toNanos();
        }

        boolean check(String progress) {
            if (progress == null || !progress.equals(last)) {
                same.observe(false); // a new reading starts the clock again
            }
            last = progress;
            return same.observe(progress != null && progress.endsWith(" waiting")) >= limitNanos;
        }
    }

    /**
     * Rows held back behind one transaction still running, batch after batch: once for longer than {@code limit}, one
     * warning naming it (nothing is relayed past it until it ends: a transaction left open by a client, or one stuck on
     * a lock, stops every lifecycle event and command of the cluster), and a line when it ends. The clock follows the
     * transaction, not the condition: under a steady load rows are held back at nearly every look, each time by
     * another short transaction, which is neither worth a warning nor a reason to look less often.
     */
    private final class HeldBack {

        private final long limitNanos;
        private final Lasting held = new Lasting();
        private String by;
        private long heldNanos;
        private boolean warned;

        HeldBack(Duration limit) {
            this.limitNanos = limit.toNanos();
        }

        /** One look's outcome: the transaction rows wait behind (its xid), or null when none waits. */
        void observe(String heldBackBy) {
            if (!Objects.equals(heldBackBy, by)) {
                if (warned) {
                    log.info("outbox-relay-held-back-ended xid={} seconds={}", by, heldNanos / 1_000_000_000);
                }
                warned = false;
                held.observe(false); // another transaction, or none: a clock of its own
                by = heldBackBy;
            }
            long lasted = held.observe(heldBackBy != null);
            if (heldBackBy != null && !warned && lasted >= limitNanos) {
                warned = true;
                String oldest;
                try {
                    oldest = jdbc.queryForObject(OLDEST_TRANSACTION, String.class);
                } catch (RuntimeException e) {
                    oldest = "(unknown: " + e.getMessage() + ")";
                }
                log.warn("outbox-relay-held-back xid={} seconds={} oldest_transaction: {} (rows committed after it "
                        + "began wait until it ends)", heldBackBy, lasted / 1_000_000_000, oldest);
            }
            heldNanos = lasted;
        }

        Duration retry() {
            return heldBackRetry(properties.heldBackRetry(), Duration.ofNanos(heldNanos));
        }
    }

    /** One batch's outcome; {@code heldBackBy}: the transaction committed rows wait behind (its xid), else null. */
    private record Result(int sent, boolean standby, String heldBackBy, boolean full) {
        static final Result STANDBY = new Result(0, true, null, false);
    }
}
