package io.drover.model.cell;

import io.drover.model.json.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Cell presence in PostgreSQL: a rep upserts its row on every heartbeat, which pushes {@code expires_at} forward by the
 * TTL. A cell whose row expired is gone as far as scheduling and convergence are concerned.
 */
public class CellPresence {

    private static final String COLUMNS = "cell_id, zone, address, memory_mb, disk_mb, containers, rootfs_providers, "
            + "placement_tags, optional_placement_tags, isolation, state, heartbeat_at, expires_at, version, "
            + "log_endpoint";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public CellPresence(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Registers or refreshes the cell; keeps an EVACUATING state once set. */
    public void heartbeat(CellRegistration r, Duration ttl) {
        Instant now = clock.instant();
        jdbc.update("INSERT INTO cells (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,'ACTIVE',?,?,0,?) "
                + "ON CONFLICT (cell_id) DO UPDATE SET zone = EXCLUDED.zone, address = EXCLUDED.address, "
                + "memory_mb = EXCLUDED.memory_mb, disk_mb = EXCLUDED.disk_mb, containers = EXCLUDED.containers, "
                + "rootfs_providers = EXCLUDED.rootfs_providers, placement_tags = EXCLUDED.placement_tags, "
                + "optional_placement_tags = EXCLUDED.optional_placement_tags, isolation = EXCLUDED.isolation, "
                + "heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at, "
                + "log_endpoint = EXCLUDED.log_endpoint, version = cells.version + 1",
                r.cellId(), r.zone(), r.address(), r.capacity().memoryMb(), r.capacity().diskMb(),
                r.capacity().containers(), Json.write(r.rootfsProviders()), Json.write(r.placementTags()),
                Json.write(r.optionalPlacementTags()), r.isolation().name(), Timestamp.from(now),
                Timestamp.from(now.plus(ttl)), r.logEndpoint());
    }

    /** The cell stops taking work (the auctioneer skips it) while it drains. */
    public void evacuate(String cellId) {
        jdbc.update("UPDATE cells SET state = 'EVACUATING', version = version + 1 WHERE cell_id = ?", cellId);
    }

    /** A clean shutdown: the cell is gone at once rather than after its TTL. */
    public void remove(String cellId) {
        jdbc.update("DELETE FROM cells WHERE cell_id = ?", cellId);
    }

    public Optional<Cell> find(String cellId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells WHERE cell_id = ?", CellPresence::map, cellId).stream()
                .findFirst();
    }

    public List<Cell> all() {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells ORDER BY cell_id", CellPresence::map);
    }

    /** Cells whose presence has not expired, evacuating ones included. */
    public List<Cell> live() {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells WHERE expires_at > ? ORDER BY cell_id",
                CellPresence::map, Timestamp.from(clock.instant()));
    }

    private static Cell map(ResultSet rs, int row) throws SQLException {
        CellRegistration registration = new CellRegistration(rs.getString("cell_id"), rs.getString("zone"),
                rs.getString("address"),
                new Resources(rs.getInt("memory_mb"), rs.getInt("disk_mb"), rs.getInt("containers")),
                Cell.strings(rs.getString("rootfs_providers")), Cell.strings(rs.getString("placement_tags")),
                Cell.strings(rs.getString("optional_placement_tags")),
                CellIsolation.valueOf(rs.getString("isolation")), rs.getString("log_endpoint"));
        return new Cell(registration, CellState.valueOf(rs.getString("state")),
                rs.getTimestamp("heartbeat_at").toInstant(), rs.getTimestamp("expires_at").toInstant(),
                rs.getLong("version"));
    }
}
