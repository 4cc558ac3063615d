package io.drover.model.messaging;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Array;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves committed outbox rows to Kafka. One batch = one short transaction that locks up to {@code batchSize} unsent
 * rows ({@code FOR UPDATE SKIP LOCKED}), sends them in id order (the idempotent producer keeps that order per partition,
 * hence per key), waits for the broker's acknowledgement and marks them sent. When Kafka is down the transaction rolls
 * back and the rows wait; a row may then be sent twice, always with the same message id, which consumers tolerate.
 *
 * <p>Every service runs a relay, but only one relays at a time: a batch first takes a transaction-scoped advisory lock
 * ({@link #RELAY_LOCK}) and the others skip their turn. Two relays sending disjoint batches at once could deliver a
 * key's later message before its earlier one; one active relay keeps per-key order, and the others are hot standbys
 * that take over within a poll interval.
 *
 * <p>This transaction is the one place where Kafka I/O happens while a database transaction is open: it holds nothing
 * but the outbox rows it is relaying.
 */
public class OutboxRelay implements SmartLifecycle {

    /** The PostgreSQL advisory lock key ({@code pg_advisory_xact_lock}) held by the relay that is sending a batch. */
    public static final long RELAY_LOCK = 0x44524f5645524f42L;

    private static final Logger log = LoggerFactory.getLogger(OutboxRelay.class);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate tx;
    private final KafkaTemplate<String, String> kafka;
    private final OutboxSignal signal;
    private final Clock clock;
    private final OutboxProperties properties;
    private final Counter sent;
    private volatile Thread thread;
    private volatile boolean running;

    public OutboxRelay(JdbcTemplate jdbc, TransactionTemplate tx, KafkaTemplate<String, String> kafka,
            OutboxSignal signal, Clock clock, OutboxProperties properties, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.kafka = kafka;
        this.signal = signal;
        this.clock = clock;
        this.properties = properties;
        this.sent = Counter.builder("drover.outbox.sent").description("messages relayed to Kafka").register(meters);
        Gauge.builder("drover.outbox.lag.seconds", this, OutboxRelay::lagSeconds)
                .description("age of the oldest unsent outbox row").register(meters);
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
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void loop() {
        Duration backoff = Duration.ZERO;
        while (running) {
            try {
                if (!backoff.isZero()) {
                    Thread.sleep(backoff.toMillis());
                }
                int relayed = relayBatch();
                backoff = Duration.ZERO;
                if (relayed < properties.batchSize()) {
                    signal.await(properties.pollInterval());
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

    private Duration nextBackoff(Duration current) {
        Duration next = current.isZero() ? Duration.ofMillis(100) : current.multipliedBy(2);
        return next.compareTo(properties.maxBackoff()) > 0 ? properties.maxBackoff() : next;
    }

    /** Relays one batch; returns how many rows it sent (0 as well while another relay holds {@link #RELAY_LOCK}). */
    public int relayBatch() {
        Integer count = tx.execute(status -> {
            if (!Boolean.TRUE.equals(jdbc.queryForObject("SELECT pg_try_advisory_xact_lock(?)", Boolean.class,
                    RELAY_LOCK))) {
                return 0;
            }
            List<Row> rows = jdbc.query("SELECT id, topic, message_key, payload FROM outbox WHERE sent_at IS NULL "
                    + "ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED",
                    (rs, i) -> new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                    properties.batchSize());
            if (rows.isEmpty()) {
                return 0;
            }
            send(rows);
            markSent(rows);
            return rows.size();
        });
        sent.increment(count);
        return count;
    }

    private void send(List<Row> rows) {
        List<CompletableFuture<?>> acks = new ArrayList<>(rows.size());
        for (Row row : rows) {
            acks.add(kafka.send(new ProducerRecord<>(row.topic(), row.key(), row.payload())));
        }
        // No producer flush(): it waits for every record of the shared producer, unbounded by sendTimeout, for as
        // long as the broker is unreachable (delivery.timeout.ms); linger.ms sends the batch by itself.
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(properties.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while relaying", e);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka did not acknowledge " + rows.size() + " outbox rows", e);
        }
    }

    private void markSent(List<Row> rows) {
        Long[] ids = rows.stream().map(Row::id).toArray(Long[]::new);
        Timestamp now = Timestamp.from(clock.instant());
        jdbc.update(con -> {
            var ps = con.prepareStatement("UPDATE outbox SET sent_at = ? WHERE id = ANY (?)");
            Array array = con.createArrayOf("bigint", ids);
            ps.setTimestamp(1, now);
            ps.setArray(2, array);
            return ps;
        });
    }

    private double lagSeconds() {
        try {
            List<Timestamp> oldest = jdbc.queryForList(
                    "SELECT created_at FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT 1", Timestamp.class);
            return oldest.isEmpty() ? 0 : Duration.between(oldest.get(0).toInstant(), clock.instant()).toMillis() / 1000.0;
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private record Row(long id, String topic, String key, String payload) {
    }
}
