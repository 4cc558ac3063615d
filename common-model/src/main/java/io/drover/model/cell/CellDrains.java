package io.drover.model.cell;

import io.drover.model.lrp.Actor;
import io.drover.model.messaging.AuditLog;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.messaging.Outbox;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only write path to an operator's drain of a cell (SPEC 18), and to the one state the rep writes because of it:
 * DRAINED. The order is state on the cell's row ({@link DrainOrder}), not a message: the rep reads it back with every
 * heartbeat, so it survives a restart of the rep or of the receptor. Each change is one transaction with its audit row
 * in {@code lrp_events} (entity {@code cell}, keyed by the cell id) naming who did it, which is also its
 * {@code cell_changed} lifecycle event ({@link CellSnapshot} before and after).
 */
public class CellDrains {

    public static final String CELL_CHANGED = "cell_changed";

    /** The deadline of a drain that names none, from a rep that does not say its own (the reps' default). */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(10);

    private static final String FOR_UPDATE = "SELECT " + CellPresence.COLUMNS + ", evacuation_deadline_s FROM cells "
            + "WHERE cell_id = ? FOR UPDATE";

    private final TransactionTemplate tx;
    private final JdbcTemplate jdbc;
    private final AuditLog audit;
    private final Clock clock;
    private final Supplier<UUID> ids;

    public CellDrains(TransactionTemplate tx, JdbcTemplate jdbc, Outbox outbox, Clock clock, Supplier<UUID> ids) {
        this.tx = tx;
        this.jdbc = jdbc;
        this.audit = new AuditLog(jdbc, outbox);
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * Orders the cell to drain: from now on it takes no new work, and its rep hands every instance over (SPEC 8.5),
     * within {@code deadline} (null: the rep's own evacuation deadline) of now. A cell ordered already keeps its order,
     * with the new deadline if one is given.
     *
     * @throws CellNotFoundException when no such cell is registered
     * @throws CellGoneException when its presence expired: no rep is there to move anything
     */
    public Cell drain(String cellId, Duration deadline, String by, Actor actor) {
        return tx.execute(status -> {
            Locked locked = lock(cellId);
            Cell before = locked.cell();
            Instant now = now();
            if (!before.isLive(now)) {
                throw new CellGoneException(cellId, before.expiresAt());
            }
            if (before.drain() != null && deadline == null) {
                return before;
            }
            Instant requestedAt = before.drain() == null ? now : before.drain().requestedAt();
            Instant deadlineAt = now.plus(deadline != null ? deadline : locked.evacuationDeadline());
            String requestedBy = before.drain() == null ? by : before.drain().requestedBy();
            Cell after = write(cellId, new DrainOrder(requestedAt, deadlineAt, requestedBy));
            record(before, after, (before.drain() == null ? "drain requested by " : "drain deadline changed by ")
                    + by + " (deadline " + deadlineAt + ")", actor, now);
            return after;
        });
    }

    /**
     * Withdraws the cell's drain order: it takes work again (at once if its drain is done, once its rep hears of it
     * otherwise: what it handed over stays where it went). A cell with no order is left as it is.
     *
     * @throws CellNotFoundException when no such cell is registered
     */
    public Cell undrain(String cellId, String by, Actor actor) {
        return tx.execute(status -> {
            Cell before = lock(cellId).cell();
            if (before.drain() == null) {
                return before;
            }
            Cell after = write(cellId, null);
            record(before, after, "undrained by " + by, actor, now());
            return after;
        });
    }

    /**
     * The rep's word that the cell's drain is done (nothing runs there): the cell is DRAINED, and its heartbeats say so
     * from then on. Only while the order stands and only from the holder of the cell's presence; false otherwise (the
     * cell was undrained meanwhile, and its rep hears of it with its next heartbeat).
     */
    public boolean drained(String cellId, String holder) {
        return Boolean.TRUE.equals(tx.execute(status -> {
            Cell before = lock(cellId).cell();
            if (before.drain() == null) {
                return false;
            }
            if (before.reported() == CellState.DRAINED) {
                return true;
            }
            int written = jdbc.update("UPDATE cells SET state = 'DRAINED', version = version + 1 WHERE cell_id = ? "
                    + "AND EXISTS (SELECT 1 FROM leader_locks l WHERE l.name = ? AND l.holder = ?)", cellId,
                    CellPresence.LOCK_PREFIX + cellId, holder);
            if (written == 0) {
                return false;
            }
            record(before, find(cellId), "drained: nothing runs on the cell", Actor.cell(cellId), now());
            return true;
        }));
    }

    /** Now, in PostgreSQL's microseconds: what is written reads back equal. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private Locked lock(String cellId) {
        List<Locked> rows = jdbc.query(FOR_UPDATE, (rs, i) -> {
            int seconds = rs.getInt("evacuation_deadline_s");
            Duration evacuationDeadline = rs.wasNull() ? DEFAULT_DEADLINE : Duration.ofSeconds(seconds);
            return new Locked(CellPresence.map(rs, i), evacuationDeadline);
        }, cellId);
        if (rows.isEmpty()) {
            throw new CellNotFoundException(cellId);
        }
        return rows.get(0);
    }

    /** A cell's row, locked, with how long its rep's own drains may take. */
    private record Locked(Cell cell, Duration evacuationDeadline) {
    }

    private Cell write(String cellId, DrainOrder order) {
        jdbc.update("UPDATE cells SET drain_requested_at = ?, drain_deadline_at = ?, drain_requested_by = ?, "
                + "version = version + 1 WHERE cell_id = ?", order == null ? null : Timestamp.from(order.requestedAt()),
                order == null ? null : Timestamp.from(order.deadlineAt()), order == null ? null : order.requestedBy(),
                cellId);
        return find(cellId);
    }

    private Cell find(String cellId) {
        return jdbc.query("SELECT " + CellPresence.COLUMNS + " FROM cells WHERE cell_id = ?", CellPresence::map,
                cellId).get(0);
    }

    private void record(Cell before, Cell after, String reason, Actor actor, Instant now) {
        UUID eventId = ids.get();
        CellSnapshot was = CellSnapshot.of(before);
        CellSnapshot is = CellSnapshot.of(after);
        audit.append(List.of(new AuditLog.Entry("cell", after.cellId(), null, CELL_CHANGED, was.state().name(),
                is.state().name(), reason, after.version(), actor.service(), actor.cellId(), eventId,
                LifecycleEvent.encode(eventId, CELL_CHANGED, was, is, now))), now);
    }
}
