package io.drover.model.autoscale;

import io.drover.model.jdbc.SqlArrays;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The only writer of the autoscaler's records: once per tick, in one transaction, what it decided for every autoscaled
 * LRP ({@code autoscaler_states}: one statement for all) and the tick's sample of each ({@code autoscaler_samples}: one
 * statement), and the samples older than the chart's window of those LRPs, with the records of LRPs no longer
 * autoscaled. These are the leader's records, not lifecycle state (no version, no event): {@link #guardedBy} fences
 * them like every write of a leader, and a record of an LRP deleted meanwhile is simply not written.
 */
public class AutoscalerRecords {

    private static final String STATES = """
            INSERT INTO autoscaler_states (process_guid, evaluated_at, cpu_percent, memory_percent, counted_instances,
                computed_instances, condition, recommendations, last_scale_at, last_scale_from, last_scale_to,
                last_scale_reason)
            SELECT t.* FROM unnest(?::varchar[], ?::timestamptz[], ?::float8[], ?::float8[], ?::int[], ?::int[],
                    ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::int[], ?::text[])
                AS t(process_guid, evaluated_at, cpu_percent, memory_percent, counted_instances, computed_instances,
                     condition, recommendations, last_scale_at, last_scale_from, last_scale_to, last_scale_reason)
            JOIN desired_lrps d ON d.process_guid = t.process_guid
            ON CONFLICT (process_guid) DO UPDATE SET evaluated_at = EXCLUDED.evaluated_at,
                cpu_percent = EXCLUDED.cpu_percent, memory_percent = EXCLUDED.memory_percent,
                counted_instances = EXCLUDED.counted_instances, computed_instances = EXCLUDED.computed_instances,
                condition = EXCLUDED.condition, recommendations = EXCLUDED.recommendations,
                last_scale_at = EXCLUDED.last_scale_at, last_scale_from = EXCLUDED.last_scale_from,
                last_scale_to = EXCLUDED.last_scale_to, last_scale_reason = EXCLUDED.last_scale_reason""";
    private static final String SAMPLES = """
            INSERT INTO autoscaler_samples (process_guid, at, cpu_percent, memory_percent, instances)
            SELECT t.* FROM unnest(?::varchar[], ?::timestamptz[], ?::float8[], ?::float8[], ?::int[])
                AS t(process_guid, at, cpu_percent, memory_percent, instances)
            JOIN desired_lrps d ON d.process_guid = t.process_guid
            ON CONFLICT (process_guid, at) DO NOTHING""";
    private static final String PRUNE_SAMPLES = "DELETE FROM autoscaler_samples WHERE process_guid = ANY "
            + "(?::varchar[]) AND at < ?";
    private static final String FORGET = """
            WITH gone AS (
                DELETE FROM autoscaler_states s WHERE NOT EXISTS (SELECT 1 FROM desired_lrps d
                    WHERE d.process_guid = s.process_guid AND d.autoscaling IS NOT NULL)
                RETURNING process_guid)
            DELETE FROM autoscaler_samples WHERE process_guid IN (SELECT process_guid FROM gone)""";

    /** How long the samples are kept: the dashboard's chart shows the last 30 minutes. */
    public static final Duration HISTORY = Duration.ofMinutes(30);

    private final TransactionTemplate tx;
    private final JdbcTemplate jdbc;
    private final Duration history;
    private final Runnable guard;

    /** @param history how long the samples are kept ({@link #HISTORY}) */
    public AutoscalerRecords(TransactionTemplate tx, JdbcTemplate jdbc, Duration history) {
        this(tx, jdbc, history, () -> {
        });
    }

    private AutoscalerRecords(TransactionTemplate tx, JdbcTemplate jdbc, Duration history, Runnable guard) {
        this.tx = tx;
        this.jdbc = jdbc;
        this.history = history;
        this.guard = guard;
    }

    /** These records with {@code guard} run last in the transaction, before it commits (the leader's fence). */
    public AutoscalerRecords guardedBy(Runnable guard) {
        return new AutoscalerRecords(tx, jdbc, history, guard);
    }

    /** One tick: every LRP's decision and sample, the expired samples, the records of LRPs no longer autoscaled. */
    public void write(List<Evaluation> evaluations, Instant now) {
        tx.executeWithoutResult(status -> {
            if (!evaluations.isEmpty()) {
                jdbc.execute((Connection con) -> {
                    writeStates(con, evaluations);
                    writeSamples(con, evaluations);
                    try (PreparedStatement ps = con.prepareStatement(PRUNE_SAMPLES)) {
                        ps.setArray(1, strings(con, evaluations, Evaluation::processGuid));
                        ps.setTimestamp(2, Timestamp.from(now.minus(history)));
                        ps.executeUpdate();
                    }
                    return null;
                });
            }
            jdbc.update(FORGET);
            guard.run(); // last: the fence holds the lock row until the commit
        });
    }

    private static void writeStates(Connection con, List<Evaluation> rows) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement(STATES)) {
            ps.setArray(1, strings(con, rows, Evaluation::processGuid));
            ps.setArray(2, times(con, rows, e -> e.status().evaluatedAt()));
            ps.setArray(3, doubles(con, rows, e -> e.status().cpuPercent()));
            ps.setArray(4, doubles(con, rows, e -> e.status().memoryPercent()));
            ps.setArray(5, SqlArrays.ints(con, rows, e -> e.status().countedInstances()));
            ps.setArray(6, SqlArrays.ints(con, rows, e -> e.status().desiredInstances()));
            ps.setArray(7, con.createArrayOf("text", rows.stream().map(e -> e.status().condition()).toArray()));
            ps.setArray(8, con.createArrayOf("text", rows.stream()
                    .map(e -> Recommendation.toJson(e.recommendations())).toArray()));
            ps.setArray(9, times(con, rows, e -> e.status().lastScaleAt()));
            ps.setArray(10, SqlArrays.ints(con, rows, e -> e.status().lastScaleFrom()));
            ps.setArray(11, SqlArrays.ints(con, rows, e -> e.status().lastScaleTo()));
            ps.setArray(12, con.createArrayOf("text", rows.stream().map(e -> e.status().lastScaleReason())
                    .toArray()));
            ps.executeUpdate();
        }
    }

    private static void writeSamples(Connection con, List<Evaluation> rows) throws SQLException {
        try (PreparedStatement ps = con.prepareStatement(SAMPLES)) {
            ps.setArray(1, strings(con, rows, Evaluation::processGuid));
            ps.setArray(2, times(con, rows, e -> e.status().evaluatedAt()));
            ps.setArray(3, doubles(con, rows, e -> e.status().cpuPercent()));
            ps.setArray(4, doubles(con, rows, e -> e.status().memoryPercent()));
            ps.setArray(5, SqlArrays.ints(con, rows, Evaluation::instances));
            ps.executeUpdate();
        }
    }

    private static Array strings(Connection con, List<Evaluation> rows, Function<Evaluation, String> column)
            throws SQLException {
        return SqlArrays.strings(con, rows, column);
    }

    private static Array doubles(Connection con, List<Evaluation> rows, Function<Evaluation, Double> column)
            throws SQLException {
        return con.createArrayOf("float8", rows.stream().map(column).toArray(Double[]::new));
    }

    private static Array times(Connection con, List<Evaluation> rows, Function<Evaluation, Instant> column)
            throws SQLException {
        return con.createArrayOf("timestamptz", rows.stream().map(column)
                .map(t -> t == null ? null : Timestamp.from(t)).toArray(Timestamp[]::new));
    }

    /**
     * One LRP's tick: its status (what {@code GET} shows), the proposals its windows keep, and the instances it has
     * after the tick (the chart's count).
     */
    public record Evaluation(String processGuid, AutoscalingStatus status, List<Recommendation> recommendations,
            int instances) {

        public Evaluation {
            recommendations = List.copyOf(recommendations);
        }
    }
}
