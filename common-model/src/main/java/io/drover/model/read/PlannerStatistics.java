package io.drover.model.read;

import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keeps PostgreSQL's planner statistics of the LRP tables in step with their size. Autovacuum analyzes a table once
 * enough of it changed, at most every naptime; a table it analyzed while empty (every LRP deleted) is believed empty
 * until the next analyze, and while a burst refills it every batched key lookup is planned as if each index were one
 * page: a benchmark that ran a warm-up first saw the auctioneer's rounds read every UNCLAIMED row through the state
 * index (0.7 s a round) and, another time, look each key up through the domain index (3 ms a key instead of 6 µs).
 * The converger counts every row at each pass anyway; when a table has grown far past what the planner believes, it
 * analyzes it then and there.
 */
public class PlannerStatistics {

    private static final Logger log = LoggerFactory.getLogger(PlannerStatistics.class);

    /** Below this many rows any plan is fast: no analyze for a table that is small anyway. */
    static final long SMALL = 1_000;

    /** Each table whose count is watched, with the tables analyzed with it (a desired LRP's definitions grow with it). */
    private static final Map<String, List<String>> TABLES = Map.of(
            "actual_lrps", List.of("actual_lrps"),
            "desired_lrps", List.of("desired_lrps", "desired_lrp_definitions"));

    private final JdbcTemplate jdbc;

    public PlannerStatistics(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Analyzes {@code table} (and the tables that grow with it) when it holds {@code rows} but the planner believes
     * it far smaller. Returns whether it did; a failure (no privilege, a lock timeout) is logged and changes nothing.
     */
    public boolean keepUp(String table, long rows) {
        List<String> analyzed = TABLES.get(table);
        if (analyzed == null) {
            throw new IllegalArgumentException("no statistics are kept for " + table);
        }
        try {
            Double believed = jdbc.queryForObject("SELECT reltuples FROM pg_class WHERE oid = ?::regclass",
                    Double.class, table);
            if (believed == null || !isStale(believed, rows)) {
                return false;
            }
            long started = System.nanoTime();
            analyzed.forEach(t -> jdbc.execute("ANALYZE " + t));
            log.info("planner-statistics-refreshed table={} rows={} believed={} duration_ms={}", table, rows,
                    Math.round(believed), (System.nanoTime() - started) / 1_000_000);
            return true;
        } catch (DataAccessException e) {
            log.warn("planner-statistics-not-refreshed table={} cause={}", table, e.toString());
            return false;
        }
    }

    /**
     * Whether the planner's belief ({@code pg_class.reltuples}; negative when the table was never analyzed, and then
     * the planner estimates from its size on disk, which is right) is far below the rows the table holds: more than
     * twice as many, and more than {@link #SMALL}.
     */
    static boolean isStale(double believed, long rows) {
        return believed >= 0 && rows > SMALL && rows > 2 * believed + SMALL;
    }
}
