package io.drover.model.read;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The one definition of a live cell in SQL: its presence has not expired ({@code expires_at > now}, the same rule as
 * {@link Cell#isLive}). Live cells, the schedulable ones among them (live and ACTIVE, {@link Cell#isSchedulable}), their
 * ids as of an instant, and a census that tells a watcher whether cells were lost.
 */
public class LiveCells {

    static final String LIVE = "expires_at > ?";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public LiveCells(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The live cells now, evacuating ones included, by cell_id. */
    public List<Cell> cells() {
        return jdbc.query("SELECT " + CellPresence.COLUMNS + " FROM cells WHERE " + LIVE + " ORDER BY cell_id",
                CellPresence::map, Timestamp.from(clock.instant()));
    }

    /**
     * The cells that take new work now: live and ACTIVE as {@link Cell#state()} says (no operator's drain order, and
     * not draining on their rep's own account), so a cell takes nothing new from the moment it is ordered to drain.
     */
    public List<Cell> schedulable() {
        return jdbc.query("SELECT " + CellPresence.COLUMNS + " FROM cells WHERE " + LIVE + " AND " + SCHEDULABLE
                + " ORDER BY cell_id", CellPresence::map, Timestamp.from(clock.instant()));
    }

    /** {@link Cell#state()} is ACTIVE, in SQL. */
    static final String SCHEDULABLE = "drain_requested_at IS NULL AND state <> 'EVACUATING'";

    /** The ids of the cells live at {@code at}. */
    public Set<String> ids(Instant at) {
        return new HashSet<>(jdbc.queryForList("SELECT cell_id FROM cells WHERE " + LIVE, String.class,
                Timestamp.from(at)));
    }

    /**
     * The cells live at {@code at}, each with how far it has got with its placements (see
     * {@link CellPresence.Heartbeat}); a cell whose rep does not say counts as through {@code at}.
     */
    public Map<String, Instant> placementsThrough(Instant at) {
        Map<String, Instant> cells = new HashMap<>();
        jdbc.query("SELECT cell_id, placements_through FROM cells WHERE " + LIVE, rs -> {
            Timestamp through = rs.getTimestamp(2);
            cells.put(rs.getString(1), through == null ? at : through.toInstant());
        }, Timestamp.from(at));
        return cells;
    }

    /** The cells whose presence had expired at {@code at} (their rows not yet collected), with when it did. */
    public Map<String, Instant> expired(Instant at) {
        Map<String, Instant> cells = new HashMap<>();
        jdbc.query("SELECT cell_id, expires_at FROM cells WHERE expires_at <= ?", rs -> {
            cells.put(rs.getString(1), rs.getTimestamp(2).toInstant());
        }, Timestamp.from(at));
        return cells;
    }

    /** How many cells expired in {@code (since, now]} and how many are live at {@code now}: one small aggregate. */
    public Census census(Instant since, Instant now) {
        return jdbc.queryForObject("SELECT count(*) FILTER (WHERE expires_at > ? AND expires_at <= ?), "
                + "count(*) FILTER (WHERE " + LIVE + ") FROM cells", (rs, row) -> new Census(rs.getLong(1),
                rs.getLong(2)), Timestamp.from(since), Timestamp.from(now), Timestamp.from(now));
    }

    /**
     * @param expired cells whose presence ran out in the window
     * @param live cells live at its end
     */
    public record Census(long expired, long live) {
    }
}
