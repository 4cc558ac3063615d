package io.drover.converger.pass;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Notices, cheaply and often, that a cell's presence expired (or its row went away) since the last look, so the loop
 * can react within a second instead of waiting for the next periodic pass. One small aggregate over the cells
 * table (one row per machine) per look.
 */
class CellLossWatcher {

    private final JdbcTemplate jdbc;
    private final Clock clock;
    private Instant lastLook;
    private long lastLive = -1;

    CellLossWatcher(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Whether a cell expired or disappeared since the previous call; the first call only takes a baseline. */
    synchronized boolean cellsLostSinceLastLook() {
        Instant now = clock.instant();
        Instant since = lastLook == null ? now : lastLook;
        long[] counts = jdbc.queryForObject("SELECT count(*) FILTER (WHERE expires_at > ? AND expires_at <= ?), "
                + "count(*) FILTER (WHERE expires_at > ?) FROM cells",
                (rs, row) -> new long[] { rs.getLong(1), rs.getLong(2) },
                Timestamp.from(since), Timestamp.from(now), Timestamp.from(now));
        boolean lost = counts[0] > 0 || (lastLive >= 0 && counts[1] < lastLive);
        lastLook = now;
        lastLive = counts[1];
        return lost;
    }
}
