package io.drover.model.lrp;

import static io.drover.model.jdbc.SqlArrays.ints;
import static io.drover.model.jdbc.SqlArrays.longs;
import static io.drover.model.jdbc.SqlArrays.strings;

import io.drover.model.json.Json;
import io.drover.model.time.IsoInstants;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import tools.jackson.core.type.TypeReference;

/**
 * Reads and writes {@code actual_lrps} rows over JDBC, a batch per statement: one query loads any number of records,
 * one {@code INSERT ... SELECT FROM unnest(...)}, one {@code UPDATE ... FROM unnest(...) WHERE version = ...} and one
 * {@code DELETE ... USING unnest(...)} write them. The {@code version} column is the optimistic lock, as it was under
 * JPA: a write whose row count falls short of the batch lost a race and throws {@link OptimisticLockingFailureException},
 * which {@link OptimisticRetry} retries with a fresh read. Only the lifecycle uses it.
 */
final class ActualLrpStore {

    static final String COLUMNS = "a.process_guid, a.instance_index, a.domain, a.state, a.instance_guid, a.cell_id, "
            + "a.address, a.ports, a.crash_count, a.crash_reason, a.placement_error, a.placed_cell_id, a.placed_at, "
            + "a.since, a.epoch, a.version, a.stop_requested, a.definition_version, false";

    private static final String LOAD = "SELECT " + COLUMNS + " FROM actual_lrps a JOIN unnest(?::varchar[], ?::int[]) "
            + "AS k(g, i) ON a.process_guid = k.g AND a.instance_index = k.i";

    /** An evacuating twin in the columns of an actual LRP: always RUNNING, never placed. */
    static final String EVACUATING_COLUMNS = "a.process_guid, a.instance_index, a.domain, 'RUNNING', a.instance_guid, "
            + "a.cell_id, a.address, a.ports, a.crash_count, a.crash_reason, NULL, NULL, NULL::timestamptz, a.since, "
            + "a.epoch, a.version, NULL, a.definition_version, a.kept_for = 'deployment'";

    private static final String LOAD_EVACUATING = "SELECT " + EVACUATING_COLUMNS + " FROM evacuating_lrps a "
            + "JOIN unnest(?::varchar[], ?::int[]) AS k(g, i) ON a.process_guid = k.g AND a.instance_index = k.i";

    private static final String INSERT_EVACUATING = """
            INSERT INTO evacuating_lrps (process_guid, instance_index, domain, instance_guid, cell_id, address, ports,
                crash_count, crash_reason, since, epoch, version, definition_version, kept_for)
            SELECT g, i, d, ig, c, ad, p, cc, cr, si::timestamptz, e::uuid, 0, dv, kf
            FROM unnest(?::varchar[], ?::int[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::text[],
                ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::varchar[])
                AS v(g, i, d, ig, c, ad, p, cc, cr, si, e, dv, kf)""";

    private static final String DELETE_EVACUATING = """
            DELETE FROM evacuating_lrps a USING unnest(?::varchar[], ?::int[], ?::bigint[]) AS v(g, i, ver)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.version = v.ver
            RETURNING a.process_guid, a.instance_index""";

    private static final String INSERT = """
            INSERT INTO actual_lrps (process_guid, instance_index, domain, state, instance_guid, cell_id, address, ports,
                crash_count, crash_reason, placement_error, placed_cell_id, placed_at, since, epoch, version,
                definition_version)
            SELECT g, i, d, s, ig, c, ad, p, cc, cr, pe, pc, pa::timestamptz, si::timestamptz, e::uuid, 0, dv
            FROM unnest(?::varchar[], ?::int[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[],
                ?::text[], ?::int[], ?::text[], ?::text[], ?::varchar[], ?::text[], ?::text[], ?::text[], ?::int[])
                AS v(g, i, d, s, ig, c, ad, p, cc, cr, pe, pc, pa, si, e, dv)""";

    private static final String UPDATE = """
            UPDATE actual_lrps a SET state = v.s, instance_guid = v.ig, cell_id = v.c, address = v.ad, ports = v.p,
                crash_count = v.cc, crash_reason = v.cr, placement_error = v.pe, placed_cell_id = v.pc,
                placed_at = v.pa::timestamptz, since = v.si::timestamptz, stop_requested = v.sr,
                definition_version = v.dv, version = a.version + 1
            FROM unnest(?::varchar[], ?::int[], ?::bigint[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[],
                ?::text[], ?::int[], ?::text[], ?::text[], ?::varchar[], ?::text[], ?::text[], ?::text[], ?::int[])
                AS v(g, i, ver, s, ig, c, ad, p, cc, cr, pe, pc, pa, si, sr, dv)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.version = v.ver
            RETURNING a.process_guid, a.instance_index""";

    private static final String DELETE = """
            DELETE FROM actual_lrps a USING unnest(?::varchar[], ?::int[], ?::bigint[]) AS v(g, i, ver)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.version = v.ver
            RETURNING a.process_guid, a.instance_index""";

    private static final String HOLD = """
            SELECT a.process_guid, a.instance_index FROM %s a JOIN unnest(?::varchar[], ?::int[], ?::bigint[])
                AS v(g, i, ver) ON a.process_guid = v.g AND a.instance_index = v.i AND a.version = v.ver
            FOR SHARE OF a""";

    private static final TypeReference<List<NetInfo.PortMapping>> PORTS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    ActualLrpStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The records of these slots that exist, in one query. */
    Map<ActualLrpKey, ActualLrp> load(Collection<ActualLrpKey> keys) {
        return load(LOAD, keys, false);
    }

    /** The evacuating twins of these slots that exist, in one query. */
    Map<ActualLrpKey, ActualLrp> loadEvacuating(Collection<ActualLrpKey> keys) {
        return load(LOAD_EVACUATING, keys, true);
    }

    private Map<ActualLrpKey, ActualLrp> load(String sql, Collection<ActualLrpKey> keys, boolean evacuating) {
        Map<ActualLrpKey, ActualLrp> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        List<ActualLrpKey> distinct = List.copyOf(new LinkedHashSet<>(keys));
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(sql);
            ps.setArray(1, strings(con, distinct, ActualLrpKey::processGuid));
            ps.setArray(2, ints(con, distinct, ActualLrpKey::index));
            return ps;
        }, (RowCallbackHandler) rs -> {
            ActualLrp lrp = map(rs, evacuating);
            found.put(lrp.key(), lrp);
        });
        return found;
    }

    /** Up to {@code limit} evacuating twins whose cell's presence has expired (or was removed) at {@code now}. */
    List<ActualLrp> evacuatingOnLostCells(Instant now, int limit) {
        return jdbc.query("SELECT " + EVACUATING_COLUMNS + " FROM evacuating_lrps a WHERE NOT EXISTS (SELECT 1 FROM "
                + "cells c WHERE c.cell_id = a.cell_id AND c.expires_at > ?) ORDER BY a.process_guid, "
                + "a.instance_index LIMIT ?", (rs, i) -> map(rs, true), java.sql.Timestamp.from(now), limit);
    }

    /** Which of these indices of one LRP have a record (only the indices: nothing is loaded). */
    Set<Integer> existingIndices(String processGuid, Collection<Integer> indices) {
        if (indices.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(
                    "SELECT instance_index FROM actual_lrps WHERE process_guid = ? AND instance_index = ANY (?)");
            ps.setString(1, processGuid);
            ps.setArray(2, con.createArrayOf("int4", indices.toArray()));
            return ps;
        }, (rs, i) -> rs.getInt(1)));
    }

    /** The current definition version of those of these desired LRPs that exist. */
    Map<String, Integer> definitionVersions(Collection<String> processGuids) {
        Map<String, Integer> found = new HashMap<>();
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(
                    "SELECT process_guid, definition_version FROM desired_lrps WHERE process_guid = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", new HashSet<>(processGuids).toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> found.put(rs.getString(1), rs.getInt(2)));
        return found;
    }

    /** Every slot of one LRP that has a record. */
    List<ActualLrpKey> keysOf(String processGuid) {
        return jdbc.query("SELECT instance_index FROM actual_lrps WHERE process_guid = ? ORDER BY instance_index",
                (rs, i) -> ActualLrpKey.of(processGuid, rs.getInt(1)), processGuid);
    }

    /** Inserts new records (ordinary and twins) at version 0; a slot taken meanwhile is a duplicate key (a lost race). */
    void insert(Collection<ActualLrp> lrps) {
        List<ActualLrp> twins = lrps.stream().filter(ActualLrp::isEvacuating).toList();
        insertOrdinary(lrps.stream().filter(l -> !l.isEvacuating()).toList());
        if (twins.isEmpty()) {
            return;
        }
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(INSERT_EVACUATING);
            int p = keyColumns(con, ps, twins);
            ps.setArray(p++, strings(con, twins, ActualLrp::domain));
            ps.setArray(p++, strings(con, twins, ActualLrp::instanceGuid));
            ps.setArray(p++, strings(con, twins, ActualLrp::cellId));
            ps.setArray(p++, strings(con, twins, ActualLrp::address));
            ps.setArray(p++, strings(con, twins, l -> l.ports() == null ? null : Json.write(l.ports())));
            ps.setArray(p++, ints(con, twins, ActualLrp::crashCount));
            ps.setArray(p++, strings(con, twins, ActualLrp::crashReason));
            ps.setArray(p++, strings(con, twins, l -> instant(l.since())));
            ps.setArray(p++, strings(con, twins, l -> l.epoch().toString()));
            ps.setArray(p++, ints(con, twins, ActualLrp::definitionVersion));
            ps.setArray(p, strings(con, twins, l -> l.isKeptForDeployment() ? "deployment" : "evacuation"));
            return ps;
        });
    }

    private void insertOrdinary(List<ActualLrp> rows) {
        if (rows.isEmpty()) {
            return;
        }
        jdbc.update(con -> {
            PreparedStatement ps = con.prepareStatement(INSERT);
            int p = keyColumns(con, ps, rows);
            ps.setArray(p++, strings(con, rows, ActualLrp::domain));
            p = stateColumns(con, ps, p, rows);
            ps.setArray(p++, strings(con, rows, l -> l.epoch().toString()));
            ps.setArray(p, ints(con, rows, ActualLrp::definitionVersion));
            return ps;
        });
    }

    /** Writes changed records if their version is still the one read; bumps it in memory. Twins never change. */
    void update(Collection<ActualLrp> lrps) {
        if (lrps.isEmpty()) {
            return;
        }
        if (lrps.stream().anyMatch(ActualLrp::isEvacuating)) {
            throw new IllegalStateException("an evacuating twin is created and removed, never changed");
        }
        List<ActualLrp> rows = List.copyOf(lrps);
        Set<ActualLrpKey> written = write(UPDATE, rows, (con, ps) -> {
            int p = keyColumns(con, ps, rows);
            ps.setArray(p++, longs(con, rows, ActualLrp::version));
            p = stateColumns(con, ps, p, rows);
            ps.setArray(p++, strings(con, rows, ActualLrp::stopRequested));
            ps.setArray(p, ints(con, rows, ActualLrp::definitionVersion));
        });
        confirm(rows, written, "updated");
    }

    /** Deletes records (ordinary and twins) if their version is still the one read. */
    void delete(Collection<ActualLrp> lrps) {
        delete(DELETE, lrps.stream().filter(l -> !l.isEvacuating()).toList());
        delete(DELETE_EVACUATING, lrps.stream().filter(ActualLrp::isEvacuating).toList());
    }

    private void delete(String sql, List<ActualLrp> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Set<ActualLrpKey> written = write(sql, rows, (con, ps) -> {
            int p = keyColumns(con, ps, rows);
            ps.setArray(p, longs(con, rows, ActualLrp::version));
        });
        if (written.size() != rows.size()) {
            throw conflict(rows, written, "deleted");
        }
    }

    /**
     * Share-locks records this transaction decided about without changing them (a stop asked of their cell), if their
     * version is still the one read: a concurrent change either committed first (a conflict, retried with a fresh
     * read) or waits for this transaction, so audit rows follow the order of the changes they describe.
     */
    void holdUnchanged(Collection<ActualLrp> lrps) {
        hold("actual_lrps", lrps.stream().filter(l -> !l.isEvacuating()).toList());
        hold("evacuating_lrps", lrps.stream().filter(ActualLrp::isEvacuating).toList());
    }

    private void hold(String table, List<ActualLrp> rows) {
        if (rows.isEmpty()) {
            return;
        }
        Set<ActualLrpKey> held = write(HOLD.formatted(table), rows, (con, ps) -> {
            int p = keyColumns(con, ps, rows);
            ps.setArray(p, longs(con, rows, ActualLrp::version));
        });
        if (held.size() != rows.size()) {
            throw conflict(rows, held, "unchanged");
        }
    }

    private Set<ActualLrpKey> write(String sql, List<ActualLrp> rows, Binder binder) {
        Set<ActualLrpKey> written = new HashSet<>(rows.size() * 2);
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(sql);
            binder.bind(con, ps);
            return ps;
        }, (RowCallbackHandler) rs -> written.add(ActualLrpKey.of(rs.getString(1), rs.getInt(2))));
        return written;
    }

    private static void confirm(List<ActualLrp> rows, Set<ActualLrpKey> written, String what) {
        if (written.size() != rows.size()) {
            throw conflict(rows, written, what);
        }
        rows.forEach(ActualLrp::written);
    }

    private static OptimisticLockingFailureException conflict(List<ActualLrp> rows, Set<ActualLrpKey> written,
            String what) {
        List<ActualLrpKey> lost = new ArrayList<>();
        rows.stream().map(ActualLrp::key).filter(k -> !written.contains(k)).limit(5).forEach(lost::add);
        return new OptimisticLockingFailureException((rows.size() - written.size()) + " of " + rows.size()
                + " actual LRPs not " + what + ": changed or removed meanwhile, e.g. " + lost);
    }

    private static int keyColumns(Connection con, PreparedStatement ps, List<ActualLrp> rows) throws SQLException {
        ps.setArray(1, strings(con, rows, ActualLrp::processGuid));
        ps.setArray(2, ints(con, rows, ActualLrp::index));
        return 3;
    }

    /** The mutable columns, from state to since; returns the next parameter index. */
    private static int stateColumns(Connection con, PreparedStatement ps, int p, List<ActualLrp> rows)
            throws SQLException {
        ps.setArray(p++, strings(con, rows, l -> l.state().name()));
        ps.setArray(p++, strings(con, rows, ActualLrp::instanceGuid));
        ps.setArray(p++, strings(con, rows, ActualLrp::cellId));
        ps.setArray(p++, strings(con, rows, ActualLrp::address));
        ps.setArray(p++, strings(con, rows, l -> l.ports() == null ? null : Json.write(l.ports())));
        ps.setArray(p++, ints(con, rows, ActualLrp::crashCount));
        ps.setArray(p++, strings(con, rows, ActualLrp::crashReason));
        ps.setArray(p++, strings(con, rows, ActualLrp::placementError));
        ps.setArray(p++, strings(con, rows, ActualLrp::placedCellId));
        ps.setArray(p++, strings(con, rows, l -> instant(l.placedAt())));
        ps.setArray(p++, strings(con, rows, l -> instant(l.since())));
        return p;
    }

    static ActualLrp map(ResultSet rs) throws SQLException {
        return map(rs, false);
    }

    /** A row in the column order of {@link #COLUMNS} (or {@link #EVACUATING_COLUMNS}, then {@code evacuating}). */
    static ActualLrp map(ResultSet rs, boolean evacuating) throws SQLException {
        String instanceGuid = rs.getString(5);
        String address = rs.getString(7);
        String ports = rs.getString(8);
        NetInfo net = address == null ? null
                : new NetInfo(address, ports == null ? List.of() : Json.read(ports, PORTS));
        return ActualLrp.stored(ActualLrpKey.of(rs.getString(1), rs.getInt(2)), rs.getString(3),
                rs.getObject(15, UUID.class), ActualLrpState.valueOf(rs.getString(4)),
                instanceGuid == null ? InstanceOwner.NONE : new InstanceOwner(instanceGuid, rs.getString(6)), net,
                rs.getInt(9), rs.getString(10), rs.getString(11), rs.getString(12), toInstant(rs, 13),
                toInstant(rs, 14), rs.getLong(16), evacuating, rs.getString(17), rs.getInt(18), rs.getBoolean(19));
    }

    private static Instant toInstant(ResultSet rs, int column) throws SQLException {
        java.sql.Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }

    private static String instant(Instant instant) {
        return instant == null ? null : IsoInstants.format(instant);
    }

    @FunctionalInterface
    private interface Binder {
        void bind(Connection con, PreparedStatement ps) throws SQLException;
    }
}
