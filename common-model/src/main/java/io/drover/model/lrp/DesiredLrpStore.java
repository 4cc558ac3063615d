package io.drover.model.lrp;

import io.drover.model.json.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;

/**
 * The desired LRP's row written by plain statements where the entity would only add a read: a desire's insert (with
 * its first definition) and a delete. Updates and deployments change the loaded {@link DesiredLrp} entity, whose
 * {@code @Version} is their compare-and-swap.
 */
final class DesiredLrpStore {

    private static final String INSERT = """
            WITH desired AS (
                INSERT INTO desired_lrps (process_guid, domain, instances, rootfs, action, monitor, checks, env, ports,
                    memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, routes, annotation, start_timeout_s,
                    log_guid, metrics_guid, epoch, definition_version, version, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (process_guid) DO NOTHING
                RETURNING process_guid, definition_version, action, monitor, checks, start_timeout_s, env, ports,
                    memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
            INSERT INTO desired_lrp_definitions (process_guid, definition_version, action, monitor, checks,
                start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
            SELECT * FROM desired""";

    private static final String DELETE = """
            DELETE FROM desired_lrps WHERE process_guid = ?
            RETURNING process_guid, domain, rootfs, instances, action, monitor, checks, start_timeout_s, env, ports,
                memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, routes, annotation, log_guid, metrics_guid,
                epoch, version, created_at, updated_at, definition_version""";

    private static final TypeReference<List<EnvVar>> ENV = new TypeReference<>() {
    };
    private static final TypeReference<List<Integer>> PORTS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> TAGS = new TypeReference<>() {
    };

    private final JdbcTemplate jdbc;

    DesiredLrpStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts a new desired LRP (made by {@link DesiredLrp#create}, not persisted) and its first definition in the
     * history ({@link DefinitionHistory}'s copy of the deployable columns) in one statement; false, writing nothing,
     * when a desired LRP of that process_guid exists. A concurrent desire of the same guid waits on the primary key
     * until the first commits (then finds it taken) or rolls back (then inserts).
     */
    boolean insert(DesiredLrp lrp) {
        DesiredLrpSnapshot s = lrp.snapshot();
        DesiredLrpDefinition d = s.definition();
        Timestamp created = Timestamp.from(s.createdAt());
        return jdbc.update(INSERT, ps -> {
            ps.setString(1, d.processGuid());
            ps.setString(2, d.domain());
            ps.setInt(3, d.instances());
            ps.setString(4, d.rootfs());
            ps.setString(5, json(d.action()));
            ps.setString(6, json(d.monitor()));
            ps.setString(7, json(d.checkDefinition()));
            ps.setString(8, json(d.env()));
            ps.setString(9, json(d.ports()));
            ps.setInt(10, d.memoryMb());
            ps.setInt(11, d.diskMb());
            ps.setInt(12, d.maxPids());
            ps.setInt(13, d.cpuWeight());
            ps.setString(14, json(d.placementTags()));
            ps.setString(15, d.routes());
            ps.setString(16, d.annotation());
            ps.setInt(17, d.startTimeout());
            ps.setString(18, d.logGuid());
            ps.setString(19, d.metricsGuid());
            ps.setObject(20, s.modificationTag().epoch());
            ps.setInt(21, s.definitionVersion());
            ps.setLong(22, s.modificationTag().index());
            ps.setTimestamp(23, created);
            ps.setTimestamp(24, Timestamp.from(s.updatedAt()));
        }) == 1;
    }

    /**
     * Deletes the desired LRP (its definition history and deployments go with it) and returns it as it was, or empty
     * when there is none. The row is gone, whatever its version, in one statement: nothing to compare.
     */
    Optional<DesiredLrpSnapshot> delete(String processGuid) {
        return jdbc.query(DELETE, DesiredLrpStore::snapshot, processGuid).stream().findFirst();
    }

    private static DesiredLrpSnapshot snapshot(ResultSet rs, int row) throws SQLException {
        DesiredLrpDefinition definition = new DesiredLrpDefinition(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getInt(4), Json.read(rs.getString(5), Action.class), read(rs.getString(6), RunAction.class),
                read(rs.getString(7), CheckDefinition.class), rs.getInt(8), Json.read(rs.getString(9), ENV),
                Json.read(rs.getString(10), PORTS), rs.getInt(11), rs.getInt(12), rs.getInt(13), rs.getInt(14),
                Json.read(rs.getString(15), TAGS), rs.getString(16), rs.getString(17), rs.getString(18),
                rs.getString(19));
        return new DesiredLrpSnapshot(definition, new ModificationTag(rs.getObject(20, UUID.class), rs.getLong(21)),
                rs.getTimestamp(22).toInstant(), rs.getTimestamp(23).toInstant(), rs.getInt(24));
    }

    private static <T> T read(String json, Class<T> type) {
        return json == null ? null : Json.read(json, type);
    }

    /** The JSON text of a structured column, as the entity's converters ({@link JsonColumns}) write it. */
    private static String json(Object value) {
        return value == null ? null : Json.write(value);
    }
}
