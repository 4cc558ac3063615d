package io.drover.model.leader;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The last pass of each loop a leader runs (the converger's {@code convergence}): when it finished, how long it took,
 * how many actions it applied and who ran it. Each pass overwrites its loop's row, so any service (the dashboard) can
 * show how convergence is doing without reaching into the converger's own meters.
 */
public class LeaderPasses {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public LeaderPasses(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Records a pass of loop {@code name} that just finished. */
    public void record(String name, String holder, Duration took, int actions) {
        jdbc.update("""
                INSERT INTO leader_passes (name, holder, finished_at, duration_ms, actions) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, finished_at = EXCLUDED.finished_at,
                    duration_ms = EXCLUDED.duration_ms, actions = EXCLUDED.actions""",
                name, holder, Timestamp.from(clock.instant()), took.toNanos() / 1e6, actions);
    }

    /** The last pass of loop {@code name}, if one ever finished. */
    public Optional<Pass> last(String name) {
        return jdbc.query("SELECT holder, finished_at, duration_ms, actions FROM leader_passes WHERE name = ?",
                (rs, i) -> new Pass(rs.getString(1), rs.getTimestamp(2).toInstant(), rs.getDouble(3), rs.getInt(4)),
                name).stream().findFirst();
    }

    /** One loop's last pass. */
    public record Pass(String holder, Instant finishedAt, double durationMs, int actions) {
    }
}
