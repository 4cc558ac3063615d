package io.drover.model.lrp;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;

/**
 * Every write of {@code desired_lrps}, over JDBC. A desire: one statement inserts the row and its first definition. A
 * scale or an update of its routes, annotation or autoscaling policy (SPEC 5.3, 17), and a deployment's new
 * definition (SPEC 14): one query loads the row, one conditional {@code UPDATE ... WHERE epoch = ? AND version = ?}
 * writes what the verb changed; a row count of zero is the lost race it is. A delete: one statement that returns the
 * row it removed. (When the deployments still went through a JPA entity, Hibernate's load and flush were three
 * quarters of a PUT's CPU, and a third of a desire's.)
 */
final class DesiredLrpStore {

    private static final String COLUMNS = "process_guid, domain, rootfs, instances, action, monitor, checks, "
            + "start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, routes, "
            + "annotation, log_guid, metrics_guid, epoch, version, created_at, updated_at, definition_version, "
            + "autoscaling";

    /** How many columns {@link #COLUMNS} names ({@link #map} reads them all). */
    private static final int COLUMN_COUNT = 25;
    private static final String UPDATE = "UPDATE desired_lrps SET instances = ?, routes = ?, annotation = ?, "
            + "autoscaling = ?, updated_at = ?, version = ? WHERE process_guid = ? AND epoch = ? AND version = ?";
    private static final String REDEFINE = "UPDATE desired_lrps SET action = ?, monitor = ?, checks = ?, "
            + "start_timeout_s = ?, env = ?, ports = ?, memory_mb = ?, disk_mb = ?, max_pids = ?, cpu_weight = ?, "
            + "placement_tags = ?, definition_version = ?, updated_at = ?, version = ? "
            + "WHERE process_guid = ? AND epoch = ? AND version = ?";
    private static final String INSERT = """
            WITH desired AS (
                INSERT INTO desired_lrps (process_guid, domain, instances, rootfs, action, monitor, checks, env, ports,
                    memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, routes, annotation, start_timeout_s,
                    log_guid, metrics_guid, epoch, definition_version, version, created_at, updated_at, autoscaling)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (process_guid) DO NOTHING
                RETURNING process_guid, definition_version, action, monitor, checks, start_timeout_s, env, ports,
                    memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
            INSERT INTO desired_lrp_definitions (process_guid, definition_version, action, monitor, checks,
                start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
            SELECT * FROM desired""";

    private static final JsonColumn<Action> ACTION = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<RunAction> RUN = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<CheckDefinition> CHECKS = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<List<EnvVar>> ENV = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<List<Integer>> INTS = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<List<String>> STRINGS = new JsonColumn<>(new TypeReference<>() { });
    private static final JsonColumn<AutoscalingPolicy> AUTOSCALING = new JsonColumn<>(new TypeReference<>() { });

    private final JdbcTemplate jdbc;

    DesiredLrpStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The desired LRP as its row holds it, if it exists. */
    Optional<DesiredLrpSnapshot> find(String processGuid) {
        return jdbc.query("SELECT " + COLUMNS + " FROM desired_lrps WHERE process_guid = ?", DesiredLrpStore::map,
                processGuid).stream().findFirst();
    }

    /**
     * Writes what an update changed, if the row is still the incarnation (epoch) and at the version {@code updated}
     * follows; false, writing nothing, when another update moved it on meanwhile, or it was deleted (and perhaps
     * desired again) since it was read (the caller decides whether to try again).
     */
    boolean update(DesiredLrpSnapshot updated) {
        DesiredLrpDefinition d = updated.definition();
        ModificationTag tag = updated.modificationTag();
        int rows = jdbc.update(UPDATE, d.instances(), d.routes(), d.annotation(), AUTOSCALING.write(d.autoscaling()),
                Timestamp.from(updated.updatedAt()), tag.index(), d.processGuid(), tag.epoch(), tag.index() - 1);
        return rows == 1;
    }

    /**
     * Writes a deployment's new definition ({@link DesiredLrpSnapshot#redefinedBy}), if the row is still the
     * incarnation and at the version {@code redefined} follows; false, writing nothing, when it changed or was deleted
     * since it was read.
     */
    boolean redefine(DesiredLrpSnapshot redefined) {
        DesiredLrpDefinition d = redefined.definition();
        ModificationTag tag = redefined.modificationTag();
        return jdbc.update(REDEFINE, ps -> {
            ps.setString(1, ACTION.write(d.action()));
            ps.setString(2, RUN.write(d.monitor()));
            ps.setString(3, CHECKS.write(d.checkDefinition()));
            ps.setInt(4, d.startTimeout());
            ps.setString(5, ENV.write(d.env()));
            ps.setString(6, INTS.write(d.ports()));
            ps.setInt(7, d.memoryMb());
            ps.setInt(8, d.diskMb());
            ps.setInt(9, d.maxPids());
            ps.setInt(10, d.cpuWeight());
            ps.setString(11, STRINGS.write(d.placementTags()));
            ps.setInt(12, redefined.definitionVersion());
            ps.setTimestamp(13, Timestamp.from(redefined.updatedAt()));
            ps.setLong(14, tag.index());
            ps.setString(15, d.processGuid());
            ps.setObject(16, tag.epoch());
            ps.setLong(17, tag.index() - 1);
        }) == 1;
    }

    /**
     * Which of these process guids have a row now: a plain read, which neither locks nor gives the transaction its id,
     * and sees a row whose delete has not committed yet.
     */
    Set<String> taken(Collection<String> processGuids) {
        return new HashSet<>(jdbc.queryForList("SELECT process_guid FROM desired_lrps WHERE process_guid = ANY (?)",
                String.class, (Object) processGuids.toArray(String[]::new)));
    }

    /**
     * Inserts new desired LRPs ({@link DesiredLrpSnapshot#create}), each with its first definition in the history
     * ({@link DefinitionHistory}'s copy of the deployable columns) in one statement, all in one round trip; returns
     * those inserted (by identity): one whose process_guid is taken, also by an earlier one of the same call, writes
     * nothing. A concurrent desire of the same guid waits on the primary key until the first commits (then finds it
     * taken) or rolls back (then inserts); the rows go in process_guid order, so that two batches that wait on each
     * other's keys wait in one order.
     */
    Set<DesiredLrpSnapshot> insertAll(List<DesiredLrpSnapshot> lrps) {
        if (lrps.isEmpty()) {
            return Set.of();
        }
        List<DesiredLrpSnapshot> ordered = lrps.stream()
                .sorted(Comparator.comparing(l -> l.definition().processGuid())).toList();
        int[] counts = jdbc.batchUpdate(INSERT, ordered, ordered.size(), DesiredLrpStore::bind)[0];
        Set<DesiredLrpSnapshot> inserted = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < ordered.size(); i++) {
            if (counts[i] == Statement.SUCCESS_NO_INFO) {
                throw new IllegalStateException("the driver did not say which desired LRPs it inserted");
            }
            if (counts[i] == 1) {
                inserted.add(ordered.get(i));
            }
        }
        return inserted;
    }

    private static void bind(PreparedStatement ps, DesiredLrpSnapshot s) throws SQLException {
        DesiredLrpDefinition d = s.definition();
        ps.setString(1, d.processGuid());
        ps.setString(2, d.domain());
        ps.setInt(3, d.instances());
        ps.setString(4, d.rootfs());
        ps.setString(5, ACTION.write(d.action()));
        ps.setString(6, RUN.write(d.monitor()));
        ps.setString(7, CHECKS.write(d.checkDefinition()));
        ps.setString(8, ENV.write(d.env()));
        ps.setString(9, INTS.write(d.ports()));
        ps.setInt(10, d.memoryMb());
        ps.setInt(11, d.diskMb());
        ps.setInt(12, d.maxPids());
        ps.setInt(13, d.cpuWeight());
        ps.setString(14, STRINGS.write(d.placementTags()));
        ps.setString(15, d.routes());
        ps.setString(16, d.annotation());
        ps.setInt(17, d.startTimeout());
        ps.setString(18, d.logGuid());
        ps.setString(19, d.metricsGuid());
        ps.setObject(20, s.modificationTag().epoch());
        ps.setInt(21, s.definitionVersion());
        ps.setLong(22, s.modificationTag().index());
        ps.setTimestamp(23, Timestamp.from(s.createdAt()));
        ps.setTimestamp(24, Timestamp.from(s.updatedAt()));
        ps.setString(25, AUTOSCALING.write(d.autoscaling()));
    }

    /**
     * Deletes the desired LRP (its definition history and deployments go with it) and returns it as it was, or empty
     * when there is none. The row is gone, whatever its version, in one statement; but a version written by a
     * transaction that took its id after this one (which committed while this delete waited for the row) is a lost
     * race, retried, as the stream would publish this removal before that change ({@link RowVersions}).
     */
    Optional<DesiredLrpSnapshot> delete(String processGuid) {
        return jdbc.query("DELETE FROM desired_lrps WHERE process_guid = ? RETURNING " + COLUMNS + ", "
                + RowVersions.writtenAfterThisTransaction("desired_lrps"), (rs, row) -> {
                    if (rs.getBoolean(COLUMN_COUNT + 1)) {
                        throw RowVersions.writtenAfter("desired LRP " + processGuid);
                    }
                    return map(rs, row);
                }, processGuid).stream().findFirst();
    }

    private static DesiredLrpSnapshot map(ResultSet rs, int row) throws SQLException {
        DesiredLrpDefinition definition = new DesiredLrpDefinition(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getInt(4), ACTION.read(rs.getString(5)),
                RUN.read(rs.getString(6)), CHECKS.read(rs.getString(7)),
                rs.getInt(8), ENV.read(rs.getString(9)),
                INTS.read(rs.getString(10)), rs.getInt(11), rs.getInt(12), rs.getInt(13),
                rs.getInt(14), STRINGS.read(rs.getString(15)), rs.getString(16), rs.getString(17),
                rs.getString(18), rs.getString(19), AUTOSCALING.read(rs.getString(25)));
        return new DesiredLrpSnapshot(definition,
                new ModificationTag(UUID.fromString(rs.getString(20)), rs.getLong(21)), instant(rs, 22),
                instant(rs, 23), rs.getInt(24));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return rs.getTimestamp(column).toInstant();
    }
}
