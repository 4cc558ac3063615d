package io.drover.converger.pass;

import io.drover.model.read.LiveCells;
import java.time.Clock;
import java.time.Instant;

/**
 * Notices, cheaply and often, that a cell's presence expired (or its row went away) since the last look, so the loop
 * can react within a second instead of waiting for the next periodic pass. One small census of the cells table (one
 * row per machine) per look.
 */
class CellLossWatcher {

    private final LiveCells cells;
    private final Clock clock;
    private Instant lastLook;
    private long lastLive = -1;

    CellLossWatcher(LiveCells cells, Clock clock) {
        this.cells = cells;
        this.clock = clock;
    }

    /** Whether a cell expired or disappeared since the previous call; the first call only takes a baseline. */
    synchronized boolean cellsLostSinceLastLook() {
        Instant now = clock.instant();
        LiveCells.Census census = cells.census(lastLook == null ? now : lastLook, now);
        boolean lost = census.expired() > 0 || (lastLive >= 0 && census.live() < lastLive);
        lastLook = now;
        lastLive = census.live();
        return lost;
    }
}
