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

    /** The columns {@link #map} reads, in a select list (the read model selects cells with them too). */
    public static final String COLUMNS = "cell_id, zone, address, memory_mb, disk_mb, containers, rootfs_providers, "
            + "placement_tags, optional_placement_tags, isolation, state, heartbeat_at, expires_at, version, "
            + "log_endpoint";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public CellPresence(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    private static final String UPSERT = "INSERT INTO cells (" + COLUMNS + ", placements_through) "
            + "SELECT c, z, a, m, d, n, rp, pt, opt, iso, st, ?, ?, 0, le, pth FROM unnest(?::varchar[], ?::varchar[], "
            + "?::varchar[], ?::int[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::varchar[], ?::varchar[], "
            + "?::varchar[], ?::timestamptz[]) AS v(c, z, a, m, d, n, rp, pt, opt, iso, st, le, pth) "
            + "ON CONFLICT (cell_id) DO UPDATE SET zone = EXCLUDED.zone, address = EXCLUDED.address, "
            + "memory_mb = EXCLUDED.memory_mb, disk_mb = EXCLUDED.disk_mb, containers = EXCLUDED.containers, "
            + "rootfs_providers = EXCLUDED.rootfs_providers, placement_tags = EXCLUDED.placement_tags, "
            + "optional_placement_tags = EXCLUDED.optional_placement_tags, isolation = EXCLUDED.isolation, "
            + "state = EXCLUDED.state, heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at, "
            + "log_endpoint = EXCLUDED.log_endpoint, placements_through = EXCLUDED.placements_through, "
            + "version = cells.version + 1";

    /** Registers or refreshes an ACTIVE cell (a cell that is not draining is ACTIVE, whatever an earlier run left). */
    public void heartbeat(CellRegistration r, Duration ttl) {
        heartbeat(List.of(new Heartbeat(r, CellState.ACTIVE, null)), ttl);
    }

    /**
     * Registers or refreshes many cells in one statement (a rep process hosting many cells beats for all of them at
     * once), each in the state its rep says: a heartbeat is the whole truth about a cell, so a cell whose drain was
     * interrupted (the rep killed mid-drain) is ACTIVE again once its next rep beats without draining.
     */
    public void heartbeat(List<Heartbeat> beats, Duration ttl) {
        if (beats.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        jdbc.update(con -> {
            var ps = con.prepareStatement(UPSERT);
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now.plus(ttl)));
            ps.setArray(3, con.createArrayOf("varchar", column(beats, r -> r.cellId())));
            ps.setArray(4, con.createArrayOf("varchar", column(beats, r -> r.zone())));
            ps.setArray(5, con.createArrayOf("varchar", column(beats, r -> r.address())));
            ps.setArray(6, con.createArrayOf("int4", column(beats, r -> r.capacity().memoryMb())));
            ps.setArray(7, con.createArrayOf("int4", column(beats, r -> r.capacity().diskMb())));
            ps.setArray(8, con.createArrayOf("int4", column(beats, r -> r.capacity().containers())));
            ps.setArray(9, con.createArrayOf("varchar", column(beats, r -> Json.write(r.rootfsProviders()))));
            ps.setArray(10, con.createArrayOf("varchar", column(beats, r -> Json.write(r.placementTags()))));
            ps.setArray(11, con.createArrayOf("varchar", column(beats, r -> Json.write(r.optionalPlacementTags()))));
            ps.setArray(12, con.createArrayOf("varchar", column(beats, r -> r.isolation().name())));
            ps.setArray(13, con.createArrayOf("varchar", beats.stream().map(b -> b.state().name()).toArray()));
            ps.setArray(14, con.createArrayOf("varchar", column(beats, r -> r.logEndpoint())));
            ps.setArray(15, con.createArrayOf("timestamptz", beats.stream()
                    .map(b -> b.placementsThrough() == null ? null : Timestamp.from(b.placementsThrough())).toArray()));
            return ps;
        });
    }

    private static Object[] column(List<Heartbeat> beats, java.util.function.Function<CellRegistration, ?> value) {
        return beats.stream().map(b -> value.apply(b.registration())).toArray();
    }

    /**
     * One cell's heartbeat: what it offers, whether it takes work (ACTIVE) or drains (EVACUATING), and how far it has
     * got with the placements made on it: every placement made before {@code placementsThrough} has been taken up
     * (claimed, rejected or dropped as stale); null when the rep cannot say yet. The converger's rule 3 waits for a
     * cell that has not reached a placement yet ({@link io.drover.model.messaging.PipelineProgress}).
     */
    public record Heartbeat(CellRegistration registration, CellState state, Instant placementsThrough) {
    }

    /** The cell stops taking work (the auctioneer skips it) while it drains. */
    public void evacuate(String cellId) {
        jdbc.update("UPDATE cells SET state = 'EVACUATING', version = version + 1 WHERE cell_id = ?", cellId);
    }

    /** A clean shutdown: the cell is gone at once rather than after its TTL. */
    public void remove(String cellId) {
        jdbc.update("DELETE FROM cells WHERE cell_id = ?", cellId);
    }

    /**
     * Deletes the rows of cells whose presence expired before {@code cutoff} (their reps died without a clean
     * shutdown): a lost cell stays listed nowhere, and a rep that comes back simply announces itself again.
     */
    public int deleteExpiredBefore(Instant cutoff) {
        return jdbc.update("DELETE FROM cells WHERE expires_at < ?", java.sql.Timestamp.from(cutoff));
    }

    public Optional<Cell> find(String cellId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells WHERE cell_id = ?", CellPresence::map, cellId).stream()
                .findFirst();
    }

    public List<Cell> all() {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells ORDER BY cell_id", CellPresence::map);
    }

    /**
     * Cells whose presence has not expired, evacuating ones included. Prefer {@code io.drover.model.read.LiveCells},
     * which asks the database for only the live ones; this stays for the auctioneer until it moves there.
     */
    public List<Cell> live() {
        Instant now = clock.instant();
        return all().stream().filter(cell -> cell.isLive(now)).toList();
    }

    /** One row of {@link #COLUMNS} as a cell. */
    public static Cell map(ResultSet rs, int row) throws SQLException {
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
