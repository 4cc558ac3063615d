package io.drover.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What this machine's PostgreSQL can write, measured in the same run with the cluster's own server settings, so P1 can
 * be read as a fraction of the machine rather than of a day's noise: one client per core running Drover's own kind of
 * write (a batched, versioned {@code UPDATE ... FROM unnest(...)} of 100 rows of a copy of {@code actual_lrps}, each
 * statement its own transaction) as fast as it can for a few seconds. The figure is rows written per second.
 */
final class PostgresLimit {

    private static final int ROWS = 20_000;
    private static final int BATCH = 100;

    private final String url;
    private final String user;
    private final String password;

    PostgresLimit(String url, String user, String password) {
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /** Rows per second written by batched versioned updates over {@code duration}, with one client per core. */
    double rowsPerSecond(Duration duration) throws Exception {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bench_calibration");
            s.execute("CREATE TABLE bench_calibration (LIKE actual_lrps INCLUDING ALL)");
            s.execute("INSERT INTO bench_calibration (process_guid, instance_index, domain, state, since, epoch, version)"
                    + " SELECT 'cal-' || (g / 10), g % 10, 'bench', 'UNCLAIMED', now(), gen_random_uuid(), 0"
                    + " FROM generate_series(0, " + (ROWS - 1) + ") g");
            s.execute("ANALYZE bench_calibration");
        }
        int clients = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = BenchThreads.pool(clients);
        try {
            long deadline = System.nanoTime() + duration.toNanos();
            long start = System.nanoTime();
            List<Future<Long>> written = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                written.add(pool.submit(() -> updateUntil(deadline, client, clients)));
            }
            long rows = 0;
            for (Future<Long> f : written) {
                rows += f.get();
            }
            return rows / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
            try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
                s.execute("DROP TABLE bench_calibration");
            }
        }
    }

    /** Updates only rows {@code row % clients == client}: clients never wait for (or deadlock with) each other. */
    private long updateUntil(long deadline, int client, int clients) throws SQLException {
        long rows = 0;
        try (Connection c = DriverManager.getConnection(url, user, password);
             PreparedStatement ps = c.prepareStatement("""
                     UPDATE bench_calibration a SET state = 'CLAIMED', instance_guid = 'ig', cell_id = v.c,
                         since = now(), version = a.version + 1
                     FROM unnest(?::varchar[], ?::int[], ?::varchar[]) AS v(g, i, c)
                     WHERE a.process_guid = v.g AND a.instance_index = v.i""")) {
            while (System.nanoTime() < deadline) {
                String[] guids = new String[BATCH];
                Integer[] indices = new Integer[BATCH];
                String[] cells = new String[BATCH];
                for (int i = 0; i < BATCH; i++) {
                    int row = ThreadLocalRandom.current().nextInt(ROWS / clients) * clients + client;
                    guids[i] = "cal-" + row / 10;
                    indices[i] = row % 10;
                    cells[i] = "cell-" + ThreadLocalRandom.current().nextInt(1000);
                }
                ps.setArray(1, c.createArrayOf("varchar", guids));
                ps.setArray(2, c.createArrayOf("int4", indices));
                ps.setArray(3, c.createArrayOf("varchar", cells));
                rows += ps.executeUpdate();
            }
        }
        return rows;
    }
}
