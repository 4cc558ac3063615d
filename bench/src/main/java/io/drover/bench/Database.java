package io.drover.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/** Read-only SQL the benchmark uses to observe the cluster (counting rows is cheaper than paging the API). */
final class Database implements AutoCloseable {

    private final Connection connection;

    Database(String url, String user, String password) {
        try {
            this.connection = DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot connect to " + url, e);
        }
    }

    /** The process id of the PostgreSQL backend that serves this connection. */
    long backendPid() {
        return count("SELECT pg_backend_pid()");
    }

    /**
     * What each PostgreSQL process serves, by pid: a client backend by its connection's {@code application_name} (each
     * Drover service names its own), the server's own processes by their type.
     */
    Map<Long, String> processRoles() {
        Map<Long, String> roles = new HashMap<>();
        for (List<String> row : rows("SELECT pid, CASE WHEN backend_type = 'client backend' THEN "
                + "coalesce(nullif(application_name, ''), 'unnamed clients') ELSE backend_type END "
                + "FROM pg_stat_activity")) {
            roles.put(Long.parseLong(row.get(0)), row.get(1));
        }
        return roles;
    }

    long count(String sql, Object... args) {
        return (long) number(sql, args)[0];
    }

    /**
     * Counts with {@code sql} every {@code poll} until the count satisfies {@code done} or {@code deadline} (a
     * {@link System#nanoTime()}) passes; returns the last count.
     */
    long awaitCount(LongPredicate done, long deadline, Duration poll, String sql, Object... args)
            throws InterruptedException {
        return awaitCount(done, deadline, poll, null, sql, args);
    }

    /** The same, handing every count to {@code progress} (when not null). */
    long awaitCount(LongPredicate done, long deadline, Duration poll, Console.Progress progress, String sql,
            Object... args) throws InterruptedException {
        long n = count(sql, args);
        while (!done.test(n) && System.nanoTime() < deadline) {
            if (progress != null) {
                progress.update(n);
            }
            Thread.sleep(poll.toMillis());
            n = count(sql, args);
        }
        return n;
    }

    /** A SQL array of {@code values} for a statement's parameter. */
    java.sql.Array array(String type, Object[] values) {
        try {
            return connection.createArrayOf(type, values);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot make an array of " + type, e);
        }
    }

    double[] doubles(String sql, Object... args) {
        return number(sql, args);
    }

    private double[] number(String sql, Object... args) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int columns = rs.getMetaData().getColumnCount();
                double[] values = new double[columns];
                for (int i = 0; i < columns; i++) {
                    values[i] = rs.getDouble(i + 1);
                }
                return values;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    String string(String sql, Object... args) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Every row of a query, each column as text. */
    List<List<String>> rows(String sql) {
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            List<List<String>> rows = new ArrayList<>();
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
