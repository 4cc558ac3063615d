package io.drover.model.jdbc;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * One column of a batch of rows as a PostgreSQL array, so that one {@code INSERT ... SELECT FROM unnest(...)} or
 * {@code UPDATE ... FROM unnest(...)} writes them all. The arrays are typed ({@code String[]}, {@code Integer[]},
 * ...): the driver has an encoder of its own for each, where an {@code Object[]} goes element by element.
 */
public final class SqlArrays {

    private SqlArrays() {
    }

    public static <T> Array strings(Connection con, List<T> rows, Function<T, String> column) throws SQLException {
        return of(con, "varchar", rows, column, String[]::new);
    }

    public static <T> Array ints(Connection con, List<T> rows, Function<T, Integer> column) throws SQLException {
        return of(con, "int4", rows, column, Integer[]::new);
    }

    public static <T> Array longs(Connection con, List<T> rows, Function<T, Long> column) throws SQLException {
        return of(con, "int8", rows, column, Long[]::new);
    }

    public static <T> Array uuids(Connection con, List<T> rows, Function<T, UUID> column) throws SQLException {
        return of(con, "uuid", rows, column, UUID[]::new);
    }

    public static <T> Array bytes(Connection con, List<T> rows, Function<T, byte[]> column) throws SQLException {
        return of(con, "bytea", rows, column, byte[][]::new);
    }

    /** {@code column} of every row, in order, as an array of PostgreSQL {@code type} (text columns: "varchar"). */
    public static <T, V> Array of(Connection con, String type, List<T> rows, Function<T, V> column,
            IntFunction<V[]> array) throws SQLException {
        V[] values = array.apply(rows.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = column.apply(rows.get(i));
        }
        return con.createArrayOf(type, values);
    }
}
