package io.drover.rep.presence;

import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellState;
import io.drover.model.cell.DrainOrder;
import io.drover.model.time.Instants;
import io.drover.rep.cell.CellSettings;
import io.drover.rep.cell.RepMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell's row in {@code cells}: heartbeats that keep it alive (its own first one; then the process's heartbeat
 * round carries it with every other cell's), the switch to EVACUATING, to DRAINED, the goodbye. A heartbeat says the
 * whole truth about what the rep does: ACTIVE unless this cell drains, DRAINED once an operator's drain is done. Each
 * beat reads back the operator's drain order (SPEC 18), which the cell hears of whenever it changes. A heartbeat that
 * cannot reach the database is counted and logged once per outage; nothing else depends on it succeeding, so the
 * containers keep running while the rep keeps trying.
 *
 * <p>The presence is a lock held by this rep process ({@code holder}): the cell does no work until it holds it. When
 * another holder has it, the cell waits: if that holder never beats again (a rep killed and restarted within its TTL)
 * its lock expires and this one takes the cell over; if it beats (another live rep with the same cell id), the cell
 * is refused for good ({@code cell-id-taken}) and its agent hears of it. A held cell whose beat is refused was taken
 * over by a live rep meanwhile, and is refused too.
 */
public final class Presence {

    private static final Logger log = LoggerFactory.getLogger(Presence.class);

    /** Whether this process holds the cell: not yet (or waiting for another holder's lock), yes, or never. */
    public enum Standing {
        ACQUIRING, HELD, REFUSED
    }

    /** What the presence asks of its cell and tells it. */
    public interface Agent {

        /** When the oldest placement the cell has not taken up yet was made; null when there is none. */
        Instant oldestPlacement();

        /** Once, when another live rep turns out to hold this cell id. */
        void cellIdTaken();

        /** The operator's drain order as the cell's row holds it (null: none), each time a beat finds it changed. */
        void drainOrdered(DrainOrder order);
    }

    private final CellPresence presence;
    private final CellDrains drains;
    private final CellSettings settings;
    private final RepMetrics metrics;
    private final String holder;
    private final Agent agent;
    private Standing standing = Standing.ACQUIRING;
    private CellPresence.Refusal waitingFor;
    private boolean failing;
    private boolean evacuating;
    private boolean evacuationAnnounced;
    private boolean drained;
    private DrainOrder order;
    private boolean left;
    private boolean paused;

    /** @param holder this rep process's identity, the holder of its cells' presence locks */
    public Presence(CellPresence presence, CellDrains drains, CellSettings settings, RepMetrics metrics, String holder,
            Agent agent) {
        this.presence = presence;
        this.drains = drains;
        this.settings = settings;
        this.metrics = metrics;
        this.holder = holder;
        this.agent = agent;
    }

    /**
     * This cell's heartbeat for the process's round; empty unless the cell is held, and while its agent is paused, and
     * once it left. It says how far the cell got with its placements: through what the intake has handed it
     * ({@code intakeThrough}, null when the intake cannot say yet, and then neither can the cell), but not past the
     * oldest placement it has not taken up.
     */
    public synchronized Optional<CellPresence.Heartbeat> heartbeat(Instant intakeThrough) {
        if (left || paused || standing != Standing.HELD) {
            return Optional.empty();
        }
        return Optional.of(beat(intakeThrough));
    }

    private CellPresence.Heartbeat beat(Instant intakeThrough) {
        Instant through = intakeThrough == null ? null : Instants.earlier(intakeThrough, agent.oldestPlacement());
        CellState state = drained ? CellState.DRAINED : evacuating ? CellState.EVACUATING : CellState.ACTIVE;
        return new CellPresence.Heartbeat(settings.registration(), state, through,
                settings.timing().evacuationDeadline());
    }

    /**
     * Beats alone: the cell's first heartbeat (before it reconciles; it cannot say how far its intake got), each try
     * while another holder's lock lasts, and a look at the drain order when work arrives at a cell ordered to drain.
     * Returns whether this process holds the cell now.
     */
    public synchronized boolean acquire() {
        if (left || paused || standing == Standing.REFUSED) {
            return !paused && standing == Standing.HELD;
        }
        try {
            CellPresence.Beats beaten = presence.beat(holder, List.of(beat(null)), settings.timing().presenceTtl());
            reported(null);
            if (beaten.refused().isEmpty()) {
                held();
                heard(beaten.drainOrders().get(settings.cellId()));
            } else {
                refused(beaten.refused().get(0));
            }
        } catch (RuntimeException e) {
            reported(e);
        }
        return standing == Standing.HELD;
    }

    /** The drain order a beat of this cell read back (null: none); the agent hears of a change. */
    public synchronized void heard(DrainOrder current) {
        if (!Objects.equals(current, order)) {
            order = current;
            agent.drainOrdered(current);
        }
    }

    public synchronized Standing standing() {
        return standing;
    }

    /** When to try {@link #acquire()} again: a heartbeat interval on, or just after the other holder's lock expires. */
    public synchronized Duration retryIn(Instant now) {
        Duration interval = settings.timing().heartbeatInterval();
        if (waitingFor == null || waitingFor.until() == null) {
            return interval;
        }
        Duration untilExpiry = Duration.between(now, waitingFor.until()).plusMillis(1);
        if (untilExpiry.isNegative()) {
            return Duration.ofMillis(1);
        }
        return untilExpiry.compareTo(interval) < 0 ? untilExpiry : interval;
    }

    private void held() {
        if (standing == Standing.ACQUIRING && waitingFor != null) {
            log.info("cell-id-taken-over cell={} from={} (its presence expired)", settings.cellId(),
                    waitingFor.heldBy());
        }
        standing = Standing.HELD;
        waitingFor = null;
    }

    /** A beat of this cell was refused: another holder has its presence lock. */
    public synchronized void refused(CellPresence.Refusal refusal) {
        if (standing == Standing.REFUSED || refusal.heldBy() == null) {
            return; // refused already, or the lock went away meanwhile: the next try tells
        }
        if (standing == Standing.HELD || (waitingFor != null && !refusal.equals(waitingFor))) {
            taken(refusal); // it was written since we last looked: its holder is alive
            return;
        }
        if (waitingFor == null) {
            waitingFor = refusal;
            log.warn("cell-id-held cell={} held_by={} until={} (waiting until it expires, in case its rep is gone)",
                    settings.cellId(), refusal.heldBy(), refusal.until());
        }
    }

    private void taken(CellPresence.Refusal refusal) {
        standing = Standing.REFUSED;
        waitingFor = null;
        log.error("cell-id-taken cell={} held_by={} until={} (another live rep holds this cell id: this rep does "
                + "nothing for it)", settings.cellId(), refusal.heldBy(), refusal.until());
        agent.cellIdTaken();
    }

    /** How the last heartbeat carrying this cell went (null: it was written, or refused). */
    public synchronized void reported(RuntimeException failure) {
        if (failure == null) {
            if (failing) {
                log.info("heartbeat-recovered cell={}", settings.cellId());
            }
            failing = false;
            return;
        }
        metrics.heartbeatFailed();
        if (!failing) {
            log.warn("heartbeat-failed cell={} error=\"{}\" (containers keep running; retrying)", settings.cellId(),
                    failure.getMessage());
        }
        failing = true;
    }

    /**
     * Marks the cell EVACUATING (the auctioneer skips it from then on), and every later heartbeat says so; throws while
     * the database is away.
     */
    public synchronized void announceEvacuation() {
        evacuating = true;
        if (!evacuationAnnounced) {
            presence.evacuate(settings.cellId(), holder);
            evacuationAnnounced = true;
        }
    }

    /**
     * Marks the cell DRAINED (an operator's drain is done), and every later heartbeat says so; false when the order was
     * withdrawn meanwhile (the next beat tells). Throws while the database is away.
     */
    public synchronized boolean announceDrained() {
        if (!drained) {
            drained = drains.drained(settings.cellId(), holder);
        }
        return drained;
    }

    public synchronized boolean isDrained() {
        return drained;
    }

    /** The cell takes work again (its drain was withdrawn): every later heartbeat says ACTIVE. */
    public synchronized void resumeWork() {
        evacuating = false;
        evacuationAnnounced = false;
        drained = false;
    }

    /** No heartbeat until {@link #resume()}: the agent stopped working without leaving (as a dead machine would). */
    public synchronized void pause() {
        paused = true;
    }

    public synchronized void resume() {
        paused = false;
    }

    public synchronized void leave() {
        presence.remove(settings.cellId(), holder);
        left = true;
    }
}
