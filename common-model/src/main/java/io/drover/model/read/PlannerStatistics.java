package io.drover.model.read;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keeps PostgreSQL's planner statistics of the tables that take bursts in step with their size. Autovacuum analyzes a
 * table once enough of it changed, at most every naptime (a minute); a table it analyzed while empty but not yet
 * truncated (every LRP just deleted) is believed to hold no rows at all, and while a burst refills it every batched key
 * lookup is planned as if each index were one page. The plans that follow are the worst there are: the auctioneer's
 * round and the lifecycle's load, once their prepared statements switch to a generic plan, scan the whole table once
 * per key (measured: 15-28 s for 900 keys against 100,000 rows, where fresh statistics give 5-17 ms;
 * docs/performance.md).
 *
 * <p>The converger's leader calls {@link #keepUp()} every second (with its look for lost cells): one catalog query
 * compares what the planner believes ({@code pg_class.reltuples}) with the live rows the statistics system counts
 * ({@code pg_stat_user_tables.n_live_tup}, which every committed insert moves), and a table far larger than believed is
 * analyzed then and there, within a few seconds of the burst's start.
 */
public class PlannerStatistics {

    private static final Logger log = LoggerFactory.getLogger(PlannerStatistics.class);

    /** Below this many rows any plan is fast: no analyze for a table that is small anyway. */
    static final long SMALL = 1_000;

    /**
     * The tables that take bursts and are looked up by batches of keys, each with the tables analyzed with it (a
     * desired LRP's definitions grow with it).
     */
    public static final Map<String, List<String>> BURST_TABLES = Map.of(
            "actual_lrps", List.of("actual_lrps"),
            "desired_lrps", List.of("desired_lrps", "desired_lrp_definitions"),
            "tasks", List.of("tasks"));

    private static final String BELIEVED_AND_LIVE = """
            SELECT c.relname, c.reltuples, s.n_live_tup
            FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
            WHERE c.oid = ANY (?::regclass[])""";

    private final JdbcTemplate jdbc;
    private final Map<String, List<String>> tables;
    private final String[] watched;
    private boolean failing;

    public PlannerStatistics(JdbcTemplate jdbc, Map<String, List<String>> tables) {
        this.jdbc = jdbc;
        this.tables = Map.copyOf(tables);
        this.watched = tables.keySet().toArray(String[]::new);
    }

    /**
     * Analyzes each watched table (and the tables that grow with it) that holds far more rows than the planner
     * believes. Returns the watched tables it analyzed; a failure (no privilege, a lock timeout, the database away) is
     * logged once until a look succeeds again, and changes nothing. Called from one thread.
     */
    public List<String> keepUp() {
        List<String> analyzed = new ArrayList<>(0);
        try {
            List<Belief> beliefs = jdbc.query(con -> {
                var ps = con.prepareStatement(BELIEVED_AND_LIVE);
                ps.setArray(1, con.createArrayOf("text", watched));
                return ps;
            }, (rs, n) -> new Belief(rs.getString(1), rs.getDouble(2), rs.getLong(3)));
            for (Belief belief : beliefs) {
                if (isStale(belief.believed(), belief.live())) {
                    long started = System.nanoTime();
                    tables.get(belief.table()).forEach(t -> jdbc.execute("ANALYZE " + t));
                    analyzed.add(belief.table());
                    log.info("planner-statistics-refreshed table={} live_rows={} believed={} duration_ms={}",
                            belief.table(), belief.live(), Math.round(belief.believed()),
                            (System.nanoTime() - started) / 1_000_000);
                }
            }
            failing = false;
        } catch (DataAccessException e) {
            if (!failing) {
                log.warn("planner-statistics-not-refreshed tables={} cause={}", tables.keySet(), e.toString());
            }
            failing = true;
        }
        return analyzed;
    }

    /**
     * Whether the planner's belief ({@code pg_class.reltuples}; negative when the table was never analyzed, and then
     * the planner estimates from its size on disk, which is right) is far below the rows the table holds: more than
     * twice as many, and more than {@link #SMALL}.
     */
    static boolean isStale(double believed, long rows) {
        return believed >= 0 && rows > SMALL && rows > 2 * believed + SMALL;
    }

    private record Belief(String table, double believed, long live) {
    }
}
