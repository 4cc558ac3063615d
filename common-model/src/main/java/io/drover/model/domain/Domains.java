package io.drover.model.domain;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Domain freshness. An upstream marks its domain fresh after a full sync; the converger only stops instances of fresh
 * domains, so a stale or half-synced upstream cannot wipe out running work.
 */
public class Domains {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public Domains(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Marks the domain fresh for {@code ttl}, or forever when {@code ttl} is null. */
    public void upsert(String name, Duration ttl) {
        Timestamp expiresAt = ttl == null ? null : Timestamp.from(clock.instant().plus(ttl));
        jdbc.update("INSERT INTO domains (name, expires_at) VALUES (?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET expires_at = EXCLUDED.expires_at", name, expiresAt);
    }

    /** The names of the domains that are fresh now. */
    public List<String> fresh() {
        return fresh(clock.instant());
    }

    /** The names of the domains fresh at {@code at} (a snapshot's instant). */
    public List<String> fresh(Instant at) {
        return jdbc.queryForList("SELECT name FROM domains WHERE expires_at IS NULL OR expires_at > ? ORDER BY name",
                String.class, Timestamp.from(at));
    }

    /** Garbage collection: deletes domains that expired before {@code cutoff}; returns how many. */
    public int deleteExpired(Instant cutoff) {
        return jdbc.update("DELETE FROM domains WHERE expires_at IS NOT NULL AND expires_at <= ?",
                Timestamp.from(cutoff));
    }
}
