package io.drover.model.read;

import io.drover.model.autoscale.AutoscalingStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the autoscaler wrote about an LRP, for people: its last status ({@code GET /v1/desired_lrps/{guid}}) and the
 * samples of its recent ticks (the dashboard's chart).
 */
public class AutoscalerStatuses {

    private static final String STATUS = "SELECT evaluated_at, cpu_percent, memory_percent, counted_instances, "
            + "computed_instances, condition, last_scale_at, last_scale_from, last_scale_to, last_scale_reason "
            + "FROM autoscaler_states WHERE process_guid = ?";
    private static final String SAMPLES = "SELECT at, cpu_percent, memory_percent, instances FROM autoscaler_samples "
            + "WHERE process_guid = ? AND at >= ? ORDER BY at";

    private final JdbcTemplate jdbc;

    public AutoscalerStatuses(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The last status of an LRP, if the autoscaler has looked at it (and it is still autoscaled or was lately). */
    public Optional<AutoscalingStatus> status(String processGuid) {
        return jdbc.query(STATUS, AutoscalerStatuses::status, processGuid).stream().findFirst();
    }

    /** The samples of an LRP since {@code since}, oldest first. */
    public List<Sample> samples(String processGuid, Instant since) {
        return jdbc.query(SAMPLES, (rs, row) -> new Sample(rs.getTimestamp(1).toInstant(), decimal(rs, 2),
                decimal(rs, 3), rs.getInt(4)), processGuid, Timestamp.from(since));
    }

    /** One tick's figures: the means measured (null: no figures) and the instances the LRP had. */
    public record Sample(Instant at, Double cpuPercent, Double memoryPercent, int instances) {
    }

    private static AutoscalingStatus status(ResultSet rs, int row) throws SQLException {
        return new AutoscalingStatus(rs.getTimestamp(1).toInstant(), decimal(rs, 2), decimal(rs, 3), rs.getInt(4),
                rs.getInt(5), rs.getString(6), instant(rs, 7), integer(rs, 8), integer(rs, 9), rs.getString(10));
    }

    static Double decimal(ResultSet rs, int column) throws SQLException {
        double value = rs.getDouble(column);
        return rs.wasNull() ? null : value;
    }

    static Integer integer(ResultSet rs, int column) throws SQLException {
        int value = rs.getInt(column);
        return rs.wasNull() ? null : value;
    }

    static Instant instant(ResultSet rs, int column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
