package io.drover.converger.gc;

import io.drover.model.cell.CellPresence;
import io.drover.model.domain.Domains;
import io.drover.model.task.TaskLifecycle;
import io.micrometer.core.instrument.MeterRegistry;
import io.drover.model.messaging.RelayedRows;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rule 7: deletes expired domains, {@code lrp_events} past their retention, outbox rows relayed long ago (never a row
 * not relayed yet), the presence of cells dead for long and the tombstones of tasks deleted longer ago than their
 * window. Each delete takes at most {@code batchSize} rows (one short statement each, so it never holds locks for long)
 * and one run stops after a hundred of them; what is left goes next time.
 */
class GarbageCollector {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    private static final int MAX_BATCHES = 100;

    private final RelayedRows rows;
    private final Domains domains;
    private final CellPresence cells;
    private final TaskLifecycle tasks;
    private final MeterRegistry registry;
    private final Retention retention;

    /** The tables it collects, each through its owner. */
    record Tables(RelayedRows rows, Domains domains, CellPresence cells, TaskLifecycle tasks) {
    }

    /** How long rows are kept and how many one statement deletes. */
    record Retention(Duration events, Duration sentOutbox, int batchSize, Duration deadCells, Duration taskTombstones) {
    }

    /** How many rows one run deleted, per table. */
    record Collected(int domains, int events, int outbox, int cells, int tombstones) {
    }

    GarbageCollector(Tables tables, MeterRegistry registry, Retention retention) {
        this.rows = tables.rows();
        this.domains = tables.domains();
        this.cells = tables.cells();
        this.tasks = tables.tasks();
        this.registry = registry;
        this.retention = retention;
    }

    Collected collect(Instant now) {
        long started = System.nanoTime();
        Collected collected = new Collected(domains.deleteExpired(now),
                deleteInBatches(limit -> rows.deleteEventsBefore(now.minus(retention.events()), limit)),
                deleteInBatches(limit -> rows.deleteOutboxBefore(now.minus(retention.sentOutbox()), limit)),
                cells.deleteExpiredBefore(now.minus(retention.deadCells())),
                deleteInBatches(limit -> tasks.pruneTombstones(now.minus(retention.taskTombstones()), limit)));
        registry.counter("drover.convergence.gc.deleted", "table", "domains").increment(collected.domains());
        registry.counter("drover.convergence.gc.deleted", "table", "lrp_events").increment(collected.events());
        registry.counter("drover.convergence.gc.deleted", "table", "outbox").increment(collected.outbox());
        registry.counter("drover.convergence.gc.deleted", "table", "cells").increment(collected.cells());
        registry.counter("drover.convergence.gc.deleted", "table", "task_tombstones").increment(collected.tombstones());
        log.info("garbage-collection domains={} lrp_events={} outbox={} cells={} task_tombstones={} duration_ms={}",
                collected.domains(), collected.events(), collected.outbox(), collected.cells(), collected.tombstones(),
                (System.nanoTime() - started) / 1_000_000);
        return collected;
    }

    private int deleteInBatches(IntUnaryOperator deleteUpTo) {
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES; batch++) {
            int deleted = deleteUpTo.applyAsInt(retention.batchSize());
            total += deleted;
            if (deleted < retention.batchSize()) {
                break;
            }
        }
        return total;
    }
}
