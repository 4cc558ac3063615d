package io.drover.bench;

import java.util.List;

/**
 * PostgreSQL's share of P0 by statement: the executor time pg_stat_statements (preloaded by the local cluster's
 * PostgreSQL) adds up between {@link #reset()} and {@link #top}. Executor time is not CPU time, but with the data in
 * shared buffers and commits not waiting for the disk it is mostly CPU, and it says which statements hold the rest.
 */
final class StatementCosts {

    private static final String TOP = "SELECT calls, total_exec_time, rows, left(regexp_replace(query, '\\s+', ' ', "
            + "'g'), 90), sum(total_exec_time) OVER () FROM pg_stat_statements WHERE dbid = (SELECT oid FROM "
            + "pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT %d";

    /**
     * Row updates of the actual LRPs, how many PostgreSQL made on the row's page without an index entry, and how often
     * the table's planner statistics were refreshed: by an {@code ANALYZE} statement (the converger's
     * {@code PlannerStatistics}) and by autovacuum.
     */
    private static final String UPDATES = "SELECT n_tup_upd, n_tup_hot_upd, analyze_count, autoanalyze_count "
            + "FROM pg_stat_user_tables WHERE relname = 'actual_lrps'";

    private final Database db;
    private double[] updatesAtReset = {0, 0, 0, 0};

    StatementCosts(Database db) {
        this.db = db;
    }

    void reset() {
        db.string("SELECT pg_stat_statements_reset()::text");
        updatesAtReset = db.doubles(UPDATES);
    }

    /**
     * The actual LRP row updates since {@link #reset()}, the share of them that were heap-only (HOT), and the analyzes
     * of the table since then.
     */
    String rowUpdates() {
        double[] now = db.doubles(UPDATES);
        double all = now[0] - updatesAtReset[0];
        double inPlace = now[1] - updatesAtReset[1];
        return ("actual_lrps row updates %,.0f, of which %.0f %% heap-only (no index entry); its planner statistics "
                + "refreshed %.0f times by the converger, %.0f by autovacuum").formatted(all,
                100 * inPlace / Math.max(1, all), now[2] - updatesAtReset[2], now[3] - updatesAtReset[3]);
    }

    /** The {@code n} statements that took PostgreSQL longest since {@link #reset()}, per instance that ran. */
    String top(int n, long instances) {
        List<List<String>> rows = db.rows(TOP.formatted(n));
        if (rows.isEmpty()) {
            return "PostgreSQL by statement: nothing recorded";
        }
        double perInstance = 1000.0 / Math.max(1, instances);
        double total = Double.parseDouble(rows.get(0).get(4));
        StringBuilder line = new StringBuilder("PostgreSQL executor time by statement (pg_stat_statements): %.0f us "
                .formatted(total * perInstance) + "per instance in all; the longest:");
        for (List<String> row : rows) {
            double ms = Double.parseDouble(row.get(1));
            line.append(" %.0f us (%.0f %%, %,d calls, %,d rows) %s;".formatted(ms * perInstance, 100 * ms / total,
                    Long.parseLong(row.get(0)), Long.parseLong(row.get(2)), row.get(3)));
        }
        return line.substring(0, line.length() - 1);
    }
}
