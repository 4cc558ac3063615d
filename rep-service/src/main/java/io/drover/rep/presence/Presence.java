package io.drover.rep.presence;

import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellState;
import io.drover.model.time.Instants;
import io.drover.rep.cell.CellSettings;
import io.drover.rep.cell.RepMetrics;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell's row in {@code cells}: heartbeats that keep it alive (its own first one; then the process's heartbeat
 * round carries it with every other cell's), the switch to EVACUATING, the goodbye. A heartbeat says the whole truth:
 * ACTIVE unless this cell drains. A heartbeat that cannot reach the database is counted and logged once per outage;
 * nothing else depends on it succeeding, so the containers keep running while the rep keeps trying.
 */
public final class Presence {

    private static final Logger log = LoggerFactory.getLogger(Presence.class);

    private final CellPresence presence;
    private final CellSettings settings;
    private final RepMetrics metrics;
    private boolean failing;
    private boolean evacuating;
    private boolean evacuationAnnounced;
    private boolean left;
    private boolean paused;
    private final Supplier<Instant> oldestPlacement;

    /** @param oldestPlacement when the oldest placement the cell has not taken up yet was made (null: none) */
    public Presence(CellPresence presence, CellSettings settings, RepMetrics metrics,
            Supplier<Instant> oldestPlacement) {
        this.presence = presence;
        this.settings = settings;
        this.metrics = metrics;
        this.oldestPlacement = oldestPlacement;
    }

    /**
     * This cell's heartbeat now; empty while its agent is paused, and once it left. It says how far the cell got with
     * its placements: through what the intake has handed it ({@code intakeThrough}, null when the intake cannot say
     * yet, and then neither can the cell), but not past the oldest placement it has not taken up.
     */
    public synchronized Optional<CellPresence.Heartbeat> heartbeat(Instant intakeThrough) {
        if (left || paused) {
            return Optional.empty();
        }
        Instant through = intakeThrough == null ? null : Instants.earlier(intakeThrough, oldestPlacement.get());
        return Optional.of(new CellPresence.Heartbeat(settings.registration(),
                evacuating ? CellState.EVACUATING : CellState.ACTIVE, through));
    }

    /** Beats alone (the cell's first heartbeat, before it reconciles; it cannot say how far its intake got). */
    public synchronized void beat() {
        heartbeat(null).ifPresent(b -> {
            try {
                presence.heartbeat(List.of(b), settings.timing().presenceTtl());
                reported(null);
            } catch (RuntimeException e) {
                reported(e);
            }
        });
    }

    /** How the last heartbeat carrying this cell went (null: it was written). */
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
            presence.evacuate(settings.cellId());
            evacuationAnnounced = true;
        }
    }

    /** No heartbeat until {@link #resume()}: the agent stopped working without leaving (as a dead machine would). */
    public synchronized void pause() {
        paused = true;
    }

    public synchronized void resume() {
        paused = false;
    }

    public synchronized void leave() {
        presence.remove(settings.cellId());
        left = true;
    }
}
