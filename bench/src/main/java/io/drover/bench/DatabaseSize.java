package io.drover.bench;

import java.util.List;

/**
 * P5's other half: what PostgreSQL holds for the cluster once P1's instances run, per instance: the actual LRPs (table,
 * TOAST and indexes), the desired LRPs, the lifecycle history ({@code lrp_events}: every transition of every instance
 * since the cluster started, warm-up included, until the converger's garbage collection prunes it) and the whole
 * database. Read from PostgreSQL's own sizes ({@code pg_total_relation_size}).
 */
final class DatabaseSize {

    private DatabaseSize() {
    }

    static Figure run(Database db) {
        long instances = db.count("SELECT count(*) FROM actual_lrps");
        List<String> tables = List.of("actual_lrps", "desired_lrps", "lrp_events", "evacuating_lrps", "cells");
        StringBuilder detail = new StringBuilder();
        double actual = 0;
        for (String table : tables) {
            double bytes = db.doubles("SELECT coalesce(pg_total_relation_size(to_regclass(?)), 0)", table)[0];
            double rows = db.doubles("SELECT coalesce(n_live_tup, 0) FROM pg_stat_user_tables WHERE relname = ?",
                    table)[0];
            if (table.equals("actual_lrps")) {
                actual = bytes;
            }
            detail.append("%s %,.0f MB (%,.0f rows, %,.0f bytes per instance); ".formatted(table, bytes / 1e6, rows,
                    bytes / Math.max(1, instances)));
        }
        double database = db.doubles("SELECT pg_database_size(current_database())")[0];
        return new Figure("P5 PostgreSQL's size per instance (%,d instances)".formatted(instances),
                "%,.0f bytes of actual_lrps, %,.0f in all".formatted(actual / Math.max(1, instances),
                        database / Math.max(1, instances)), "reported", true,
                detail + "the whole database %,.0f MB (tables and their indexes, TOAST included)".formatted(
                        database / 1e6));
    }
}
