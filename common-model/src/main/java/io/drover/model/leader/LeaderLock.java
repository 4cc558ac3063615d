package io.drover.model.leader;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/** A named lock row with a holder and an expiry: acquired when free or expired, renewed by its holder. */
public class LeaderLock {

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public LeaderLock(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Acquires or renews the lock for {@code ttl}; returns whether {@code holder} holds it now. */
    public boolean tryAcquire(String name, String holder, Duration ttl) {
        Instant now = clock.instant();
        int rows = jdbc.update("INSERT INTO leader_locks (name, holder, expires_at) VALUES (?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at "
                + "WHERE leader_locks.holder = EXCLUDED.holder OR leader_locks.expires_at <= ?",
                name, holder, Timestamp.from(now.plus(ttl)), Timestamp.from(now));
        return rows == 1;
    }

    /**
     * Whether {@code holder} is the lock's holder of record (an expired lock stays its holder's until another takes
     * it). Inside a transaction the lock row is read {@code FOR SHARE}, so it cannot change hands before that
     * transaction ends: its writes are fenced by the lock (a standby's {@link #tryAcquire} waits for it to end, or this
     * read already sees the new holder and says no).
     */
    public boolean isHeld(String name, String holder) {
        List<String> held = jdbc.queryForList("SELECT holder FROM leader_locks WHERE name = ? FOR SHARE", String.class,
                name);
        return held.size() == 1 && holder.equals(held.get(0));
    }

    /** Gives the lock up so a standby can take over at once. */
    public void release(String name, String holder) {
        jdbc.update("DELETE FROM leader_locks WHERE name = ? AND holder = ?", name, holder);
    }
}
