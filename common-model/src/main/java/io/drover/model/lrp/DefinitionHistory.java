package io.drover.model.lrp;

import io.drover.model.json.Json;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;

/**
 * The last {@value #KEPT} definition versions of each desired LRP ({@code desired_lrp_definitions}), written in the
 * transaction that makes a version current: a copy of the deployable columns of its {@code desired_lrps} row. A version
 * made current again (a rollback, an automatic revert) is kept as the most recent one. A new LRP's first version is
 * written with its row, by {@link DesiredLrpStore}.
 */
final class DefinitionHistory {

    static final int KEPT = 10;

    private static final String RECORD = """
            INSERT INTO desired_lrp_definitions (process_guid, definition_version, action, monitor, checks,
                start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, created_at)
            SELECT process_guid, definition_version, action, monitor, checks, start_timeout_s, env, ports, memory_mb,
                disk_mb, max_pids, cpu_weight, placement_tags, ?
            FROM desired_lrps WHERE process_guid = ?
            ON CONFLICT (process_guid, definition_version) DO UPDATE SET created_at = excluded.created_at""";

    private static final String PRUNE = """
            DELETE FROM desired_lrp_definitions WHERE process_guid = ? AND definition_version NOT IN (
                SELECT definition_version FROM desired_lrp_definitions WHERE process_guid = ?
                ORDER BY created_at DESC, definition_version DESC LIMIT ?)""";

    private final JdbcTemplate jdbc;

    DefinitionHistory(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the desired LRP's current definition under its version; the desired row must be flushed. */
    void recordCurrent(String processGuid, Instant now) {
        jdbc.update(RECORD, Timestamp.from(now), processGuid);
        jdbc.update(PRUNE, processGuid, processGuid, KEPT);
    }

    /** The deployable part of one kept version. */
    Optional<Deployable> deployable(String processGuid, int version) {
        return jdbc.query("SELECT action, monitor, checks, start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, "
                + "cpu_weight, placement_tags FROM desired_lrp_definitions WHERE process_guid = ? AND "
                + "definition_version = ?", (rs, i) -> new Deployable(Json.read(rs.getString(1), Action.class),
                        rs.getString(2) == null ? null : Json.read(rs.getString(2), RunAction.class),
                        rs.getString(3) == null ? null : Json.read(rs.getString(3), CheckDefinition.class),
                        rs.getInt(4), Json.read(rs.getString(5), new TypeReference<List<EnvVar>>() {
                        }), Json.read(rs.getString(6), new TypeReference<List<Integer>>() {
                        }), rs.getInt(7), rs.getInt(8), rs.getInt(9), rs.getInt(10),
                        Json.read(rs.getString(11), new TypeReference<List<String>>() {
                        })), processGuid, version).stream().findFirst();
    }

    /** The highest version this LRP ever had that is still kept, or its current one. */
    int highestVersion(String processGuid) {
        Integer kept = jdbc.queryForObject("SELECT max(v) FROM (SELECT definition_version AS v FROM "
                + "desired_lrp_definitions WHERE process_guid = ? UNION ALL SELECT definition_version FROM desired_lrps "
                + "WHERE process_guid = ?) AS versions", Integer.class, processGuid, processGuid);
        return kept == null ? 0 : kept;
    }
}
