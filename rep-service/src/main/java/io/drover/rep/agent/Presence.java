package io.drover.rep.agent;

import io.drover.model.cell.CellPresence;
import io.drover.rep.cell.CellSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cell's row in {@code cells}: heartbeats that keep it alive, the switch to EVACUATING, the goodbye. A heartbeat
 * that cannot reach the database is counted and logged once per outage; nothing else depends on it succeeding, so
 * the containers keep running while the rep keeps trying.
 */
final class Presence {

    private static final Logger log = LoggerFactory.getLogger(Presence.class);

    private final CellPresence presence;
    private final CellSettings settings;
    private final RepMetrics metrics;
    private boolean failing;
    private boolean evacuationAnnounced;
    private boolean left;

    Presence(CellPresence presence, CellSettings settings, RepMetrics metrics) {
        this.presence = presence;
        this.settings = settings;
        this.metrics = metrics;
    }

    /** Heartbeats come from the heartbeat pool, the rest from the cell's pass: one at a time, none after leaving. */
    synchronized void beat() {
        if (left) {
            return;
        }
        try {
            presence.heartbeat(settings.registration(), settings.timing().presenceTtl());
            if (failing) {
                log.info("heartbeat-recovered cell={}", settings.cellId());
            }
            failing = false;
        } catch (RuntimeException e) {
            metrics.heartbeatFailed();
            if (!failing) {
                log.warn("heartbeat-failed cell={} error=\"{}\" (containers keep running; retrying)",
                        settings.cellId(), e.getMessage());
            }
            failing = true;
        }
    }

    /** Marks the cell EVACUATING once (the auctioneer skips it from then on); throws while the database is away. */
    synchronized void announceEvacuation() {
        if (!evacuationAnnounced) {
            presence.evacuate(settings.cellId());
            evacuationAnnounced = true;
        }
    }

    synchronized void leave() {
        presence.remove(settings.cellId());
        left = true;
    }
}
