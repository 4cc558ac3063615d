package io.drover.converger.gc;

import io.drover.model.domain.Domains;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Rule 7: deletes expired domains, {@code lrp_events} past their retention and outbox rows sent long ago. Each delete
 * takes at most {@code batchSize} rows (one short statement each, so it never holds locks for long) and one run stops
 * after a hundred of them; what is left goes next time.
 */
class GarbageCollector {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    private static final int MAX_BATCHES = 100;

    private final JdbcTemplate jdbc;
    private final Domains domains;
    private final MeterRegistry registry;
    private final Retention retention;

    /** How long rows are kept and how many one statement deletes. */
    record Retention(Duration events, Duration sentOutbox, int batchSize) {
    }

    /** How many rows one run deleted, per table. */
    record Collected(int domains, int events, int outbox) {
    }

    GarbageCollector(JdbcTemplate jdbc, Domains domains, MeterRegistry registry, Retention retention) {
        this.jdbc = jdbc;
        this.domains = domains;
        this.registry = registry;
        this.retention = retention;
    }

    Collected collect(Instant now) {
        long started = System.nanoTime();
        Collected collected = new Collected(domains.deleteExpired(now),
                deleteInBatches("lrp_events", "SELECT id FROM lrp_events WHERE at < ? ORDER BY id LIMIT ?",
                        now.minus(retention.events())),
                deleteInBatches("outbox", "SELECT id FROM outbox WHERE sent_at < ? ORDER BY id LIMIT ?",
                        now.minus(retention.sentOutbox())));
        registry.counter("drover.convergence.gc.deleted", "table", "domains").increment(collected.domains());
        registry.counter("drover.convergence.gc.deleted", "table", "lrp_events").increment(collected.events());
        registry.counter("drover.convergence.gc.deleted", "table", "outbox").increment(collected.outbox());
        log.info("garbage-collection domains={} lrp_events={} outbox={} duration_ms={}", collected.domains(),
                collected.events(), collected.outbox(), (System.nanoTime() - started) / 1_000_000);
        return collected;
    }

    private int deleteInBatches(String table, String selectIds, Instant cutoff) {
        String delete = "DELETE FROM " + table + " WHERE id IN (" + selectIds + ")";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES; batch++) {
            int deleted = jdbc.update(delete, Timestamp.from(cutoff), retention.batchSize());
            total += deleted;
            if (deleted < retention.batchSize()) {
                break;
            }
        }
        return total;
    }
}
