package io.drover.model.lrp;

import io.drover.model.json.Json;
import java.sql.Timestamp;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A desire's writes of the desired LRP in one statement: the {@code desired_lrps} row (unless the process_guid is
 * taken) and its first definition in the history, {@link DefinitionHistory}'s copy of the deployable columns. No read
 * before it and no Hibernate persist: the primary key says whether the LRP exists, and a concurrent desire of the same
 * guid waits on the key until the first commits (then finds it taken) or rolls back (then inserts).
 */
final class DesiredLrpInsert {

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

    private final JdbcTemplate jdbc;

    DesiredLrpInsert(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts a new desired LRP (made by {@link DesiredLrp#create}, not persisted) with its first definition; false,
     * writing nothing, when a desired LRP of that process_guid exists.
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

    /** The JSON text of a structured column, as the entity's converters ({@link JsonColumns}) write it. */
    private static String json(Object value) {
        return value == null ? null : Json.write(value);
    }
}
