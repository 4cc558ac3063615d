package io.drover.model.lrp;

import static io.drover.model.jdbc.SqlArrays.ints;
import static io.drover.model.jdbc.SqlArrays.longs;
import static io.drover.model.jdbc.SqlArrays.strings;
import static io.drover.model.jdbc.SqlArrays.uuids;

import io.drover.model.json.Json;
import io.drover.model.placement.PlacementState;
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
 * Reads and writes the rows of instance slots over JDBC, a batch per statement: records in {@code actual_lrps}, twins in
 * {@code evacuating_lrps}. One query loads the record and the twin of any number of slots; one
 * {@code INSERT ... SELECT FROM unnest(...)}, one {@code UPDATE ... FROM unnest(...) WHERE epoch = ... AND version = ...}
 * and one {@code DELETE ... USING unnest(...)} per table write them. The modification tag read ({@code epoch}, which
 * names the record, and {@code version}, which counts its changes) is the optimistic lock: a write
 * whose row count falls short of the batch lost a race and throws {@link OptimisticLockingFailureException}, which
 * {@link OptimisticRetry} retries with a fresh read. It also answers what the slots' verbs must read inside the
 * transaction (the desired LRPs' instance counts under a share lock, their lives, the deployments still running, the
 * live cells). Only the lifecycle uses it.
 */
final class ActualLrpStore {

    /** A slot's record, in the column order {@link #mapRecord} reads. */
    static final String COLUMNS = "a.process_guid, a.instance_index, a.domain, a.state, a.instance_guid, a.cell_id, "
            + "a.address, a.ports, a.crash_count, a.crash_reason, a.placement_error, a.placed_cell_id, a.placed_at, "
            + "a.since, a.epoch, a.version, a.stop_requested, a.definition_version";

    /** A slot's twin (table {@code evacuating_lrps}, alias {@code e}), in the column order {@link #mapTwin} reads. */
    static final String TWIN_COLUMNS = "e.process_guid, e.instance_index, e.domain, e.instance_guid, e.cell_id, "
            + "e.address, e.ports, e.crash_count, e.crash_reason, e.since, e.epoch, e.version, e.stop_requested, "
            + "e.definition_version, e.kept_for";

    private static final int RECORD_WIDTH = 18;

    private static final int TWIN_WIDTH = 15;

    /**
     * The slots of the given keys, the record and the twin of each, in one query. Each key is looked up by the primary
     * keys of both tables (nested loops from the keys); a key with neither row comes back with nulls only.
     */
    private static final String SLOTS_OF_KEYS = " FROM unnest(?::varchar[], ?::int[]) AS k(g, i) "
            + "LEFT JOIN actual_lrps a ON a.process_guid = k.g AND a.instance_index = k.i "
            + "LEFT JOIN evacuating_lrps e ON e.process_guid = k.g AND e.instance_index = k.i";

    private static final String LOAD_SLOTS = "SELECT " + COLUMNS + ", " + TWIN_COLUMNS + SLOTS_OF_KEYS;

    /**
     * {@link #LOAD_SLOTS} for a transaction that has its id already, with whether each row is younger than it
     * ({@link RowVersions}). Only then: the hot paths (claims, starts, placements) read before their first write and
     * pay nothing for it.
     */
    private static final String LOAD_SLOTS_LATE = "SELECT " + COLUMNS + ", " + TWIN_COLUMNS + ", "
            + RowVersions.writtenAfterThisTransaction("a") + ", " + RowVersions.writtenAfterThisTransaction("e")
            + SLOTS_OF_KEYS;

    private static final String INSERT_EVACUATING = """
            INSERT INTO evacuating_lrps (process_guid, instance_index, domain, instance_guid, cell_id, address, ports,
                crash_count, crash_reason, since, epoch, version, definition_version, kept_for)
            SELECT g, i, d, ig, c, ad, p, cc, cr, si::timestamptz, e::uuid, 0, dv, kf
            FROM unnest(?::varchar[], ?::int[], ?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::text[],
                ?::int[], ?::text[], ?::text[], ?::text[], ?::int[], ?::varchar[])
                AS v(g, i, d, ig, c, ad, p, cc, cr, si, e, dv, kf)""";

    private static final String DELETE_EVACUATING = """
            DELETE FROM evacuating_lrps a USING unnest(?::varchar[], ?::int[], ?::uuid[], ?::bigint[], ?::varchar[])
                AS v(g, i, ep, ver, ig)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.epoch = v.ep AND a.version = v.ver
                AND a.instance_guid = v.ig
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
            FROM unnest(?::varchar[], ?::int[], ?::uuid[], ?::bigint[], ?::varchar[], ?::varchar[], ?::varchar[],
                ?::varchar[], ?::text[], ?::int[], ?::text[], ?::text[], ?::varchar[], ?::text[], ?::text[], ?::text[],
                ?::int[]) AS v(g, i, ep, ver, s, ig, c, ad, p, cc, cr, pe, pc, pa, si, sr, dv)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.epoch = v.ep AND a.version = v.ver
            RETURNING a.process_guid, a.instance_index""";

    private static final String DELETE = """
            DELETE FROM actual_lrps a USING unnest(?::varchar[], ?::int[], ?::uuid[], ?::bigint[]) AS v(g, i, ep, ver)
            WHERE a.process_guid = v.g AND a.instance_index = v.i AND a.epoch = v.ep AND a.version = v.ver
            RETURNING a.process_guid, a.instance_index""";

    private static final String HOLD = """
            SELECT a.process_guid, a.instance_index FROM actual_lrps a JOIN unnest(?::varchar[], ?::int[], ?::uuid[],
                ?::bigint[]) AS v(g, i, ep, ver) ON a.process_guid = v.g AND a.instance_index = v.i AND a.epoch = v.ep
                AND a.version = v.ver
            FOR SHARE OF a""";

    private static final String HOLD_TWINS = """
            SELECT a.process_guid, a.instance_index FROM evacuating_lrps a JOIN unnest(?::varchar[], ?::int[],
                ?::uuid[], ?::bigint[], ?::varchar[]) AS v(g, i, ep, ver, ig) ON a.process_guid = v.g
                AND a.instance_index = v.i AND a.epoch = v.ep AND a.version = v.ver AND a.instance_guid = v.ig
            FOR SHARE OF a""";

    private static final String UPDATE_TWINS = """
            UPDATE evacuating_lrps e SET stop_requested = v.sr, version = e.version + 1
            FROM unnest(?::varchar[], ?::int[], ?::uuid[], ?::bigint[], ?::varchar[], ?::text[])
                AS v(g, i, ep, ver, ig, sr)
            WHERE e.process_guid = v.g AND e.instance_index = v.i AND e.epoch = v.ep AND e.version = v.ver
                AND e.instance_guid = v.ig
            RETURNING e.process_guid, e.instance_index""";

    private static final TypeReference<List<NetInfo.PortMapping>> PORTS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    ActualLrpStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The record and the twin of each of these slots (either may be missing), in one query. */
    Map<ActualLrpKey, Rows> loadSlots(Collection<ActualLrpKey> keys, boolean late) {
        Map<ActualLrpKey, Rows> found = new HashMap<>();
        if (keys.isEmpty()) {
            return found;
        }
        List<ActualLrpKey> distinct = List.copyOf(new LinkedHashSet<>(keys));
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement(late ? LOAD_SLOTS_LATE : LOAD_SLOTS);
            ps.setArray(1, strings(con, distinct, ActualLrpKey::processGuid));
            ps.setArray(2, ints(con, distinct, ActualLrpKey::index));
            return ps;
        }, (RowCallbackHandler) rs -> {
            ActualLrp record = rs.getString(1) == null ? null : mapRecord(rs, 0);
            ActualLrp twin = rs.getString(RECORD_WIDTH + 1) == null ? null : mapTwin(rs, RECORD_WIDTH);
            if (late && (rs.getBoolean(RECORD_WIDTH + TWIN_WIDTH + 1) || rs.getBoolean(RECORD_WIDTH + TWIN_WIDTH + 2))) {
                throw RowVersions.writtenAfter("slot " + rs.getString(1) + "/" + rs.getInt(2));
            }
            if (record != null || twin != null) {
                Rows rows = new Rows(record, twin);
                found.put(rows.key(), rows);
            }
        });
        return found;
    }

    /** A slot's rows as stored: its record and its twin, either null. */
    record Rows(ActualLrp record, ActualLrp twin) {

        ActualLrpKey key() {
            return record != null ? record.key() : twin.key();
        }
    }

    /** Up to {@code limit} slots whose twin's cell has no presence (expired or removed) at {@code now}. */
    List<ActualLrpKey> twinsOnLostCells(Instant now, int limit) {
        return jdbc.query("SELECT e.process_guid, e.instance_index FROM evacuating_lrps e WHERE NOT EXISTS (SELECT 1 "
                + "FROM cells c WHERE c.cell_id = e.cell_id AND c.expires_at > ?) ORDER BY e.process_guid, "
                + "e.instance_index LIMIT ?", (rs, i) -> ActualLrpKey.of(rs.getString(1), rs.getInt(2)),
                java.sql.Timestamp.from(now), limit);
    }

    /**
     * Up to {@code limit} slots whose twin no record accompanies and no desired LRP wants (the LRP is gone, or has
     * fewer instances), of domains that are fresh at {@code now} (an upstream that has not synced yet keeps its
     * instances, as converger rules 5 and 6 do).
     */
    List<ActualLrpKey> orphanTwins(Instant now, int limit) {
        return jdbc.query("SELECT e.process_guid, e.instance_index FROM evacuating_lrps e WHERE NOT EXISTS (SELECT 1 "
                + "FROM actual_lrps a WHERE a.process_guid = e.process_guid AND a.instance_index = e.instance_index) "
                + "AND NOT EXISTS (SELECT 1 FROM desired_lrps d WHERE d.process_guid = e.process_guid "
                + "AND e.instance_index < d.instances) AND EXISTS (SELECT 1 FROM domains m WHERE m.name = e.domain "
                + "AND (m.expires_at IS NULL OR m.expires_at > ?)) ORDER BY e.process_guid, e.instance_index LIMIT ?",
                (rs, i) -> ActualLrpKey.of(rs.getString(1), rs.getInt(2)), java.sql.Timestamp.from(now), limit);
    }

    /**
     * How many instances each of these desired LRPs wants now, read with a lock on their rows: a scale-down or a delete
     * of one of them waits for this transaction, or this one waits for it and reads what it wrote. A missing LRP is
     * missing from the answer.
     *
     * <p>{@code FOR NO KEY UPDATE}, not {@code FOR SHARE}: a share lock is granted at once beside another share lock
     * even while an update or a delete waits for the first, so a second repair could take the row, create slots and
     * commit ahead of that waiting write, which had its transaction id already; the write then retired those slots
     * under the older id, and the stream published their removal before their creation (LifecycleEventOrderIT found
     * it). A lock that conflicts with itself queues behind the waiting write. Foreign-key checks take
     * {@code FOR KEY SHARE}, which this lock does not block.
     */
    Map<String, Desired> desiredLocked(Collection<String> processGuids) {
        Map<String, Desired> found = new HashMap<>();
        if (processGuids.isEmpty()) {
            return found;
        }
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT process_guid, instances, definition_version, epoch "
                    + "FROM desired_lrps WHERE process_guid = ANY (?) ORDER BY process_guid FOR NO KEY UPDATE");
            ps.setArray(1, con.createArrayOf("varchar", new HashSet<>(processGuids).toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> found.put(rs.getString(1), new Desired(rs.getInt(2),
                new InstanceSlot.DesiredVersion(rs.getObject(4, UUID.class), rs.getInt(3)))));
        return found;
    }

    /** The life and current definition version of those of these desired LRPs that exist (no lock). */
    Map<String, InstanceSlot.DesiredVersion> desiredVersions(Collection<String> processGuids) {
        Map<String, InstanceSlot.DesiredVersion> found = new HashMap<>();
        if (processGuids.isEmpty()) {
            return found;
        }
        jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT process_guid, definition_version, epoch FROM "
                    + "desired_lrps WHERE process_guid = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", new HashSet<>(processGuids).toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> found.put(rs.getString(1),
                new InstanceSlot.DesiredVersion(rs.getObject(3, UUID.class), rs.getInt(2))));
        return found;
    }

    /** Which of these deployments are RUNNING, read with a share lock on their rows. */
    Set<UUID> runningDeployments(Collection<UUID> ids) {
        if (ids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT id FROM deployments WHERE id = ANY (?) "
                    + "AND state = 'RUNNING' ORDER BY id FOR SHARE");
            ps.setArray(1, con.createArrayOf("uuid", ids.toArray()));
            return ps;
        }, (rs, i) -> rs.getObject(1, UUID.class)));
    }

    /** A desired LRP's instance count and current definition, as a write reads it under its lock. */
    record Desired(int instances, InstanceSlot.DesiredVersion current) {

        /** Whether the LRPs read (by process guid) want slot {@code key}. */
        static boolean wants(Map<String, Desired> desired, ActualLrpKey key) {
            Desired d = desired.get(key.processGuid());
            return d != null && key.index() < d.instances();
        }
    }

    /** Those of {@code cellIds} whose presence has not expired at {@code now}. */
    Set<String> liveCells(Collection<String> cellIds, Instant now) {
        if (cellIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT cell_id FROM cells WHERE cell_id = ANY (?) "
                    + "AND expires_at > ?");
            ps.setArray(1, con.createArrayOf("varchar", cellIds.toArray()));
            ps.setTimestamp(2, java.sql.Timestamp.from(now));
            return ps;
        }, (rs, i) -> rs.getString(1)));
    }

    /**
     * Throws a lost race when a transaction that took its id after this one has published a change of one of these
     * slots: a slot this transaction read empty before it took its id, and then waited for a lock while a younger
     * transaction filled and emptied it. The record created there would be published before that younger change. Run
     * once the records are inserted: an insert waits for a delete in flight on its key, so every such change has
     * committed by then and this statement sees it.
     */
    void requireNoYoungerEvents(Collection<ActualLrpKey> keys) {
        if (keys.isEmpty()) {
            return;
        }
        List<ActualLrpKey> distinct = List.copyOf(new LinkedHashSet<>(keys));
        Boolean younger = jdbc.query(con -> {
            PreparedStatement ps = con.prepareStatement("SELECT EXISTS (SELECT 1 FROM unnest(?::varchar[], ?::int[]) "
                    + "AS k(g, i) JOIN lrp_events e ON e.process_guid = k.g AND e.instance_index = k.i "
                    + "WHERE e.tx_id > pg_current_xact_id_if_assigned())");
            ps.setArray(1, strings(con, distinct, ActualLrpKey::processGuid));
            ps.setArray(2, ints(con, distinct, ActualLrpKey::index));
            return ps;
        }, rs -> rs.next() && rs.getBoolean(1));
        if (Boolean.TRUE.equals(younger)) {
            throw RowVersions.writtenAfter("a slot of " + distinct.get(0).processGuid());
        }
    }

    /** Every slot of one LRP that has a record or a twin. */
    List<ActualLrpKey> keysOf(String processGuid) {
        return jdbc.query("SELECT instance_index FROM actual_lrps WHERE process_guid = ? UNION SELECT instance_index "
                + "FROM evacuating_lrps WHERE process_guid = ? ORDER BY 1",
                (rs, i) -> ActualLrpKey.of(processGuid, rs.getInt(1)), processGuid, processGuid);
    }

    /** Inserts new rows (records and twins) at version 0; a slot taken meanwhile is a duplicate key (a lost race). */
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
            ps.setArray(p++, strings(con, twins, ActualLrpStore::address));
            ps.setArray(p++, strings(con, twins, ActualLrpStore::ports));
            ps.setArray(p++, ints(con, twins, ActualLrp::crashCount));
            ps.setArray(p++, strings(con, twins, ActualLrp::crashReason));
            ps.setArray(p++, strings(con, twins, l -> instant(l.since())));
            ps.setArray(p++, strings(con, twins, l -> l.epoch().toString()));
            ps.setArray(p++, ints(con, twins, ActualLrp::definitionVersion));
            ps.setArray(p, strings(con, twins, l -> l.keptFor().name().toLowerCase(java.util.Locale.ROOT)));
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

    /**
     * Writes changed rows if their version is still the one read, and bumps it in memory. Of a twin only the stop mark
     * ever changes.
     */
    void update(Collection<ActualLrp> lrps) {
        List<ActualLrp> records = lrps.stream().filter(l -> !l.isEvacuating()).toList();
        List<ActualLrp> twins = lrps.stream().filter(ActualLrp::isEvacuating).toList();
        if (!records.isEmpty()) {
            confirm(records, write(UPDATE, records, (con, ps) -> {
                int p = tagColumns(con, ps, records);
                p = stateColumns(con, ps, p, records);
                ps.setArray(p++, strings(con, records, ActualLrp::stopRequested));
                ps.setArray(p, ints(con, records, ActualLrp::definitionVersion));
            }), "updated");
        }
        if (!twins.isEmpty()) {
            confirm(twins, write(UPDATE_TWINS, twins, (con, ps) -> {
                int p = twinTagColumns(con, ps, twins);
                ps.setArray(p, strings(con, twins, ActualLrp::stopRequested));
            }), "updated");
        }
    }

    /** Deletes records (ordinary and twins) if their modification tag is still the one read. */
    void delete(Collection<ActualLrp> lrps) {
        everyTagged(DELETE, false, lrps.stream().filter(l -> !l.isEvacuating()).toList(), "deleted");
        everyTagged(DELETE_EVACUATING, true, lrps.stream().filter(ActualLrp::isEvacuating).toList(), "deleted");
    }

    /**
     * Share-locks records this transaction decided about without changing them (a stop asked of their cell), if their
     * version is still the one read: a concurrent change either committed first (a conflict, retried with a fresh
     * read) or waits for this transaction, so audit rows follow the order of the changes they describe.
     */
    void holdUnchanged(Collection<ActualLrp> lrps) {
        everyTagged(HOLD, false, lrps.stream().filter(l -> !l.isEvacuating()).toList(), "unchanged");
        everyTagged(HOLD_TWINS, true, lrps.stream().filter(ActualLrp::isEvacuating).toList(), "unchanged");
    }

    /** Runs {@code sql} on these rows by their tags; a row it did not return lost a race ({@code what} it was). */
    private void everyTagged(String sql, boolean twins, List<ActualLrp> rows, String what) {
        if (rows.isEmpty()) {
            return;
        }
        Set<ActualLrpKey> done = write(sql, rows, (con, ps) -> tags(twins, con, ps, rows));
        if (done.size() != rows.size()) {
            throw conflict(rows, done, what);
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

    /**
     * The key and the modification tag as read (epoch and version): a versioned write holds only for the row it read.
     * The version alone would not do: every row starts at version 0, so a record retired and created again meanwhile
     * would pass for the one read. Returns the next parameter index.
     */
    private static int tagColumns(Connection con, PreparedStatement ps, List<ActualLrp> rows) throws SQLException {
        int p = keyColumns(con, ps, rows);
        ps.setArray(p++, uuids(con, rows, ActualLrp::epoch));
        ps.setArray(p++, longs(con, rows, ActualLrp::version));
        return p;
    }

    /**
     * A twin's tag, its instance guid as well: a twin takes its record's epoch and starts at version 0, so the twin of
     * a later evacuation of the same record would pass for an earlier one by epoch and version.
     */
    private static int twinTagColumns(Connection con, PreparedStatement ps, List<ActualLrp> rows) throws SQLException {
        int p = tagColumns(con, ps, rows);
        ps.setArray(p++, strings(con, rows, ActualLrp::instanceGuid));
        return p;
    }

    private static int tags(boolean twins, Connection con, PreparedStatement ps, List<ActualLrp> rows)
            throws SQLException {
        return twins ? twinTagColumns(con, ps, rows) : tagColumns(con, ps, rows);
    }

    /** The mutable columns, from state to since; returns the next parameter index. */
    private static int stateColumns(Connection con, PreparedStatement ps, int p, List<ActualLrp> rows)
            throws SQLException {
        ps.setArray(p++, strings(con, rows, l -> l.state().name()));
        ps.setArray(p++, strings(con, rows, ActualLrp::instanceGuid));
        ps.setArray(p++, strings(con, rows, ActualLrp::cellId));
        ps.setArray(p++, strings(con, rows, ActualLrpStore::address));
        ps.setArray(p++, strings(con, rows, ActualLrpStore::ports));
        ps.setArray(p++, ints(con, rows, ActualLrp::crashCount));
        ps.setArray(p++, strings(con, rows, ActualLrp::crashReason));
        ps.setArray(p++, strings(con, rows, l -> l.placement().error()));
        ps.setArray(p++, strings(con, rows, l -> l.placement().cellId()));
        ps.setArray(p++, strings(con, rows, l -> instant(l.placement().placedAt())));
        ps.setArray(p++, strings(con, rows, l -> instant(l.since())));
        return p;
    }

    /** A record in the column order of {@link #COLUMNS}, starting after column {@code offset}. */
    static ActualLrp mapRecord(ResultSet rs, int offset) throws SQLException {
        return ActualLrp.stored(ActualLrpKey.of(rs.getString(offset + 1), rs.getInt(offset + 2)),
                rs.getString(offset + 3), rs.getObject(offset + 15, UUID.class), null, rs.getInt(offset + 18),
                ActualLrpState.valueOf(rs.getString(offset + 4)), owner(rs, offset + 5), net(rs, offset + 7),
                rs.getInt(offset + 9), rs.getString(offset + 10), new PlacementState(rs.getString(offset + 12),
                        toInstant(rs, offset + 13), rs.getString(offset + 11)), toInstant(rs, offset + 14),
                rs.getString(offset + 17), rs.getLong(offset + 16));
    }

    /** A twin in the column order of {@link #TWIN_COLUMNS}, starting after column {@code offset}: always RUNNING. */
    static ActualLrp mapTwin(ResultSet rs, int offset) throws SQLException {
        return ActualLrp.stored(ActualLrpKey.of(rs.getString(offset + 1), rs.getInt(offset + 2)),
                rs.getString(offset + 3), rs.getObject(offset + 11, UUID.class),
                ActualLrp.KeptFor.valueOf(rs.getString(offset + 15).toUpperCase(java.util.Locale.ROOT)),
                rs.getInt(offset + 14), ActualLrpState.RUNNING, owner(rs, offset + 4), net(rs, offset + 6),
                rs.getInt(offset + 8), rs.getString(offset + 9), PlacementState.NONE, toInstant(rs, offset + 10),
                rs.getString(offset + 13), rs.getLong(offset + 12));
    }

    private static InstanceOwner owner(ResultSet rs, int column) throws SQLException {
        String instanceGuid = rs.getString(column);
        return instanceGuid == null ? InstanceOwner.NONE : new InstanceOwner(instanceGuid, rs.getString(column + 1));
    }

    private static NetInfo net(ResultSet rs, int column) throws SQLException {
        String address = rs.getString(column);
        String ports = rs.getString(column + 1);
        return address == null ? null : new NetInfo(address, ports == null ? List.of() : Json.read(ports, PORTS));
    }

    private static String address(ActualLrp lrp) {
        NetInfo net = lrp.netInfo();
        return net == null ? null : net.address();
    }

    private static String ports(ActualLrp lrp) {
        NetInfo net = lrp.netInfo();
        return net == null ? null : Json.write(net.ports());
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
