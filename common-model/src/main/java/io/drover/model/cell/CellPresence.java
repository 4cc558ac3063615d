package io.drover.model.cell;

import io.drover.model.json.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Cell presence in PostgreSQL: a rep upserts its row on every heartbeat, which pushes {@code expires_at} forward by the
 * TTL. A cell whose row expired is gone as far as scheduling and convergence are concerned. The presence is also a lock
 * (a {@code leader_locks} row named {@code cell:<cell_id>}, with the same TTL) held by one rep process, so a second rep
 * started with a cell id that a live one holds is refused instead of overwriting it (docs/rep.md).
 */
public class CellPresence {

    /** The columns a heartbeat writes (with how far the cell got with its placements and its drain allowance). */
    private static final String BEAT_COLUMNS = "cell_id, zone, address, memory_mb, disk_mb, containers, "
            + "rootfs_providers, placement_tags, optional_placement_tags, isolation, state, heartbeat_at, expires_at, "
            + "version, log_endpoint";

    /** The operator's drain order, which only {@link CellDrains} writes. */
    static final String DRAIN_COLUMNS = "drain_requested_at, drain_deadline_at, drain_requested_by";

    /** The columns {@link #map} reads, in a select list (the read model selects cells with them too). */
    public static final String COLUMNS = BEAT_COLUMNS + ", " + DRAIN_COLUMNS;

    private final JdbcTemplate jdbc;
    private final Clock clock;

    public CellPresence(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Presence locks live beside the leader locks (as Diego's locket keeps both), named by this and the cell id. */
    static final String LOCK_PREFIX = "cell:";

    /**
     * The holder of the cells beaten by {@link #heartbeat(CellRegistration, Duration)}: fixtures and tools that play a
     * rep without being one.
     */
    public static final String UNNAMED = "unnamed";

    /**
     * One statement for many cells: the beats ({@code v}) take or renew each cell's presence lock ({@code held}: free,
     * expired, or already this holder's), and only the cells whose lock this holder now has get their row written. A
     * beat writes what its rep says (its state included) and never the operator's drain order, which it reads back.
     */
    private static final String HEARTBEAT = "WITH v AS (SELECT * FROM unnest(?::varchar[], ?::varchar[], "
            + "?::varchar[], ?::int[], ?::int[], ?::int[], ?::text[], ?::text[], ?::text[], ?::varchar[], ?::varchar[], "
            + "?::varchar[], ?::timestamptz[], ?::int[]) AS v(c, z, a, m, d, n, rp, pt, opt, iso, st, le, pth, eds)), "
            + "held AS (INSERT INTO leader_locks (name, holder, expires_at) SELECT '" + LOCK_PREFIX + "' || c, ?, ? "
            + "FROM v ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at "
            + "WHERE leader_locks.holder = EXCLUDED.holder OR leader_locks.expires_at <= ? RETURNING name) "
            + "INSERT INTO cells (" + BEAT_COLUMNS + ", placements_through, evacuation_deadline_s) "
            + "SELECT c, z, a, m, d, n, rp, pt, opt, iso, st, ?, ?, 0, le, pth, eds FROM v "
            + "WHERE '" + LOCK_PREFIX + "' || c IN (SELECT name FROM held) "
            + "ON CONFLICT (cell_id) DO UPDATE SET zone = EXCLUDED.zone, address = EXCLUDED.address, "
            + "memory_mb = EXCLUDED.memory_mb, disk_mb = EXCLUDED.disk_mb, containers = EXCLUDED.containers, "
            + "rootfs_providers = EXCLUDED.rootfs_providers, placement_tags = EXCLUDED.placement_tags, "
            + "optional_placement_tags = EXCLUDED.optional_placement_tags, isolation = EXCLUDED.isolation, "
            + "state = EXCLUDED.state, heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at, "
            + "log_endpoint = EXCLUDED.log_endpoint, placements_through = EXCLUDED.placements_through, "
            + "evacuation_deadline_s = EXCLUDED.evacuation_deadline_s, "
            + "version = cells.version + 1 RETURNING cell_id, " + DRAIN_COLUMNS;

    /** The cells a holder's statement may touch: those whose presence lock it holds. */
    private static final String HELD_BY = "EXISTS (SELECT 1 FROM leader_locks l WHERE l.name = '" + LOCK_PREFIX
            + "' || cells.cell_id AND l.holder = ?)";

    /**
     * Registers or refreshes an ACTIVE cell held by {@link #UNNAMED} (a cell that is not draining is ACTIVE, whatever
     * an earlier run left); throws if another holder has it.
     */
    public void heartbeat(CellRegistration r, Duration ttl) {
        List<Refusal> refused = heartbeat(UNNAMED, List.of(new Heartbeat(r, CellState.ACTIVE, null)), ttl);
        if (!refused.isEmpty()) {
            throw new IllegalStateException("cell-id-taken " + refused.get(0));
        }
    }

    /**
     * {@link #beat} for the refusals alone.
     *
     * @return the cells refused, each with who holds it and until when
     */
    public List<Refusal> heartbeat(String holder, List<Heartbeat> beats, Duration ttl) {
        return beat(holder, beats, ttl).refused();
    }

    /**
     * Registers or refreshes many cells in one statement (a rep process hosting many cells beats for all of them at
     * once), each in the state its rep says: a heartbeat is the whole truth about what the rep does, so a cell whose
     * own drain was interrupted (the rep killed mid-drain) is ACTIVE again once its next rep beats without draining. An
     * operator's drain order is not the rep's to say: a beat leaves it as it is and hands it back to the rep.
     *
     * <p>A cell's presence is a lock with the presence TTL, held by one rep process ({@code holder}, its identity): a
     * beat takes the lock when it is free or expired, renews it when {@code holder} has it, and is refused while
     * another holder's lock lasts. A refused cell's row is not touched.
     */
    public Beats beat(String holder, List<Heartbeat> beats, Duration ttl) {
        if (beats.isEmpty()) {
            return new Beats(List.of(), Map.of());
        }
        Instant now = clock.instant();
        Map<String, Optional<DrainOrder>> written = new HashMap<>();
        jdbc.query(con -> {
            var ps = con.prepareStatement(HEARTBEAT);
            ps.setArray(1, con.createArrayOf("varchar", column(beats, r -> r.cellId())));
            ps.setArray(2, con.createArrayOf("varchar", column(beats, r -> r.zone())));
            ps.setArray(3, con.createArrayOf("varchar", column(beats, r -> r.address())));
            ps.setArray(4, con.createArrayOf("int4", column(beats, r -> r.capacity().memoryMb())));
            ps.setArray(5, con.createArrayOf("int4", column(beats, r -> r.capacity().diskMb())));
            ps.setArray(6, con.createArrayOf("int4", column(beats, r -> r.capacity().containers())));
            ps.setArray(7, con.createArrayOf("varchar", column(beats, r -> Json.write(r.rootfsProviders()))));
            ps.setArray(8, con.createArrayOf("varchar", column(beats, r -> Json.write(r.placementTags()))));
            ps.setArray(9, con.createArrayOf("varchar", column(beats, r -> Json.write(r.optionalPlacementTags()))));
            ps.setArray(10, con.createArrayOf("varchar", column(beats, r -> r.isolation().name())));
            ps.setArray(11, con.createArrayOf("varchar", beats.stream().map(b -> b.state().name()).toArray()));
            ps.setArray(12, con.createArrayOf("varchar", column(beats, r -> r.logEndpoint())));
            ps.setArray(13, con.createArrayOf("timestamptz", beats.stream()
                    .map(b -> b.placementsThrough() == null ? null : Timestamp.from(b.placementsThrough())).toArray()));
            ps.setArray(14, con.createArrayOf("int4", beats.stream().map(b -> b.evacuationDeadline() == null ? null
                    : (int) Math.max(1, b.evacuationDeadline().toSeconds())).toArray()));
            ps.setString(15, holder);
            ps.setTimestamp(16, Timestamp.from(now.plus(ttl)));
            ps.setTimestamp(17, Timestamp.from(now));
            ps.setTimestamp(18, Timestamp.from(now));
            ps.setTimestamp(19, Timestamp.from(now.plus(ttl)));
            return ps;
        }, rs -> {
            written.put(rs.getString(1), Optional.ofNullable(drainOrder(rs)));
        });
        Map<String, DrainOrder> orders = new HashMap<>();
        written.forEach((cellId, order) -> order.ifPresent(o -> orders.put(cellId, o)));
        if (written.size() == beats.size()) {
            return new Beats(List.of(), orders);
        }
        return new Beats(refusals(beats.stream().map(b -> b.registration().cellId())
                .filter(c -> !written.containsKey(c)).toList()), orders);
    }

    /**
     * What one heartbeat statement did: the cells refused (another holder has them), and the drain orders standing on
     * the cells written, by cell id (a written cell missing here is not to drain).
     */
    public record Beats(List<Refusal> refused, Map<String, DrainOrder> drainOrders) {
    }

    /** Who holds these cells' presence locks, and until when (null, null: the lock went away meanwhile). */
    private List<Refusal> refusals(List<String> cellIds) {
        Map<String, Refusal> held = new HashMap<>();
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT name, holder, expires_at FROM leader_locks WHERE name = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", cellIds.stream().map(c -> LOCK_PREFIX + c).toArray()));
            return ps;
        }, rs -> {
            String cellId = rs.getString(1).substring(LOCK_PREFIX.length());
            held.put(cellId, new Refusal(cellId, rs.getString(2), rs.getTimestamp(3).toInstant()));
        });
        return cellIds.stream().map(c -> held.getOrDefault(c, new Refusal(c, null, null))).toList();
    }

    /**
     * A heartbeat refused: {@code heldBy} holds the cell's presence until {@code until} (both null when the lock went
     * away between the beat and the look).
     */
    public record Refusal(String cellId, String heldBy, Instant until) {
    }

    /**
     * Lets these cells' presence locks go (a rep stopping cleanly while its containers keep running): the next rep
     * process for them takes them over at once, while their rows stay live until their TTL as before.
     */
    public void release(String holder, List<String> cellIds) {
        if (cellIds.isEmpty()) {
            return;
        }
        jdbc.update(con -> {
            var ps = con.prepareStatement("DELETE FROM leader_locks WHERE holder = ? AND name = ANY (?)");
            ps.setString(1, holder);
            ps.setArray(2, con.createArrayOf("varchar", cellIds.stream().map(c -> LOCK_PREFIX + c).toArray()));
            return ps;
        });
    }

    private static Object[] column(List<Heartbeat> beats, java.util.function.Function<CellRegistration, ?> value) {
        return beats.stream().map(b -> value.apply(b.registration())).toArray();
    }

    /**
     * One cell's heartbeat: what it offers, whether it takes work (ACTIVE), drains (EVACUATING) or has finished an
     * operator's drain (DRAINED), and how far it has got with the placements made on it: every placement made before
     * {@code placementsThrough} has been taken up (claimed, rejected or dropped as stale); null when the rep cannot say
     * yet. The converger's rule 3 waits for a cell that has not reached a placement yet
     * ({@link io.drover.model.messaging.PipelineProgress}). {@code evacuationDeadline} is how long the rep's drains may
     * take, the deadline of an operator's drain that names none (null: the rep does not say).
     */
    public record Heartbeat(CellRegistration registration, CellState state, Instant placementsThrough,
            Duration evacuationDeadline) {

        /** A beat that does not say how long the rep's drains may take. */
        public Heartbeat(CellRegistration registration, CellState state, Instant placementsThrough) {
            this(registration, state, placementsThrough, null);
        }
    }

    /** The cell stops taking work (the auctioneer skips it) while it drains; only {@code holder} can say so. */
    public void evacuate(String cellId, String holder) {
        jdbc.update("UPDATE cells SET state = 'EVACUATING', version = version + 1 WHERE cell_id = ? AND " + HELD_BY,
                cellId, holder);
    }

    /** {@link #evacuate(String, String)} for a cell {@link #UNNAMED} holds. */
    public void evacuate(String cellId) {
        evacuate(cellId, UNNAMED);
    }

    /**
     * A clean shutdown: the cell is gone at once rather than after its TTL, and so is its lock; only its holder's. A
     * cell an operator ordered to drain keeps its row, expired now, so that the order outlives the rep (SPEC 18): the
     * next rep of the cell reads it with its first heartbeat.
     */
    public void remove(String cellId, String holder) {
        jdbc.update("WITH mine AS (DELETE FROM leader_locks WHERE name = ? AND holder = ? RETURNING name), "
                + "kept AS (UPDATE cells SET expires_at = least(expires_at, ?), version = version + 1 "
                + "WHERE cell_id = ? AND drain_requested_at IS NOT NULL AND EXISTS (SELECT 1 FROM mine)) "
                + "DELETE FROM cells WHERE cell_id = ? AND drain_requested_at IS NULL AND EXISTS (SELECT 1 FROM mine)",
                // expired a moment ago, so that no reading of "now" (PostgreSQL's microseconds) still finds it live
                LOCK_PREFIX + cellId, holder, Timestamp.from(clock.instant().minusMillis(1)), cellId, cellId);
    }

    /** {@link #remove(String, String)} for a cell {@link #UNNAMED} holds. */
    public void remove(String cellId) {
        remove(cellId, UNNAMED);
    }

    /**
     * Deletes the rows of cells whose presence expired before {@code cutoff} (their reps died without a clean
     * shutdown): a lost cell stays listed nowhere, and a rep that comes back simply announces itself again. The row of
     * a cell an operator ordered to drain stays until it is undrained: a machine drained for maintenance comes back
     * drained, however long it was away.
     */
    public int deleteExpiredBefore(Instant cutoff) {
        jdbc.update("DELETE FROM leader_locks WHERE name LIKE '" + LOCK_PREFIX + "%' AND expires_at < ?",
                Timestamp.from(cutoff));
        return jdbc.update("DELETE FROM cells WHERE expires_at < ? AND drain_requested_at IS NULL",
                Timestamp.from(cutoff));
    }

    public Optional<Cell> find(String cellId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells WHERE cell_id = ?", CellPresence::map, cellId).stream()
                .findFirst();
    }

    public List<Cell> all() {
        return jdbc.query("SELECT " + COLUMNS + " FROM cells ORDER BY cell_id", CellPresence::map);
    }

    /**
     * Cells whose presence has not expired, evacuating ones included, filtered here from every cell. The services read
     * {@code io.drover.model.read.LiveCells}, which asks the database for only the live ones.
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
        return new Cell(registration, CellState.valueOf(rs.getString("state")), drainOrder(rs),
                rs.getTimestamp("heartbeat_at").toInstant(), rs.getTimestamp("expires_at").toInstant(),
                rs.getLong("version"));
    }

    /** The operator's drain order of a row with {@link #DRAIN_COLUMNS}; null when there is none. */
    static DrainOrder drainOrder(ResultSet rs) throws SQLException {
        Timestamp requested = rs.getTimestamp("drain_requested_at");
        return requested == null ? null : new DrainOrder(requested.toInstant(),
                rs.getTimestamp("drain_deadline_at").toInstant(), rs.getString("drain_requested_by"));
    }
}
