package io.drover.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

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

    long count(String sql, Object... args) {
        return (long) number(sql, args)[0];
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

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
