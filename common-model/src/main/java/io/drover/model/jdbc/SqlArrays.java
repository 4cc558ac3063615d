package io.drover.model.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * One column of a batch of rows as a PostgreSQL array, so that one {@code INSERT ... SELECT FROM unnest(...)} or
 * {@code UPDATE ... FROM unnest(...)} writes them all. The arrays are typed ({@code String[]}, {@code Integer[]},
 * ...): the driver has an encoder of its own for each, where an {@code Object[]} goes element by element.
 */
public final class SqlArrays {

    private SqlArrays() {
    }

    public static <T> Array strings(Connection con, List<T> rows, Function<T, String> column) throws SQLException {
        return con.createArrayOf("varchar", fill(new String[rows.size()], rows, column));
    }

    public static <T> Array ints(Connection con, List<T> rows, Function<T, Integer> column) throws SQLException {
        return con.createArrayOf("int4", fill(new Integer[rows.size()], rows, column));
    }

    public static <T> Array longs(Connection con, List<T> rows, Function<T, Long> column) throws SQLException {
        return con.createArrayOf("int8", fill(new Long[rows.size()], rows, column));
    }

    public static <T> Array uuids(Connection con, List<T> rows, Function<T, UUID> column) throws SQLException {
        return con.createArrayOf("uuid", fill(new UUID[rows.size()], rows, column));
    }

    public static <T> Array bytes(Connection con, List<T> rows, Function<T, byte[]> column) throws SQLException {
        return con.createArrayOf("bytea", fill(new byte[rows.size()][], rows, column));
    }

    /**
     * Each typed method above allocates its own array and calls the driver itself, so the JIT compiles each with one
     * array type. A single generic method for all of them (as this class first had) saw five, and was compiled again
     * after each failed type speculation: five C2 compilations in one full benchmark run, a quarter of C2's time in P1.
     */
    private static <T, V> V[] fill(V[] values, List<T> rows, Function<T, V> column) {
        for (int i = 0; i < values.length; i++) {
            values[i] = column.apply(rows.get(i));
        }
        return values;
    }
}
