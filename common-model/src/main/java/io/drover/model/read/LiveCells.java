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
 * ids as of an instant, a page of them, their number by state, and a census that tells a watcher whether cells were
 * lost.
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

    /**
     * At most {@code size} of the live cells now, from the {@code from}-th in cell_id order: a page of cards, read and
     * parsed without the rest (10,000 cells took about 0.3 s to read whole).
     */
    public List<Cell> page(int from, int size) {
        return jdbc.query("SELECT " + CellPresence.COLUMNS + " FROM cells WHERE " + LIVE
                + " ORDER BY cell_id OFFSET ? LIMIT ?", CellPresence::map, Timestamp.from(clock.instant()), from, size);
    }

    /** How many cells are live now, and how many of them are EVACUATING and DRAINED as {@link Cell#state()} says. */
    public ByState byState() {
        return jdbc.queryForObject("SELECT count(*), count(*) FILTER (WHERE " + EVACUATING + "), count(*) FILTER "
                + "(WHERE " + DRAINED + ") FROM cells WHERE " + LIVE, (rs, n) -> new ByState(rs.getLong(1),
                        rs.getLong(2), rs.getLong(3)), Timestamp.from(clock.instant()));
    }

    /** Live cells by {@link Cell#state()}: all of them, those EVACUATING and those DRAINED. */
    public record ByState(long live, long evacuating, long drained) {
    }

    /** {@link Cell#state()} is EVACUATING, in SQL: ordered to drain and not done, or draining on its rep's account. */
    static final String EVACUATING = "((drain_requested_at IS NOT NULL AND state <> 'DRAINED') "
            + "OR (drain_requested_at IS NULL AND state = 'EVACUATING'))";

    /** {@link Cell#state()} is DRAINED, in SQL: ordered to drain, and its rep says it is done. */
    static final String DRAINED = "(drain_requested_at IS NOT NULL AND state = 'DRAINED')";

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
