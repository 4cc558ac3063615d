package io.drover.model.read;

import io.drover.model.lrp.DefinitionId;
import io.drover.model.lrp.DefinitionVersion;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.ModificationTag;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * Desired LRPs read with plain JDBC: one by process_guid (or only its modification tag, to answer "has it changed?"
 * without reading it), keyset pages in process_guid order, the definitions of many at once, and every LRP's desired
 * instance count for convergence.
 */
public class DesiredLrpRows {

    private static final String COLUMNS = "process_guid, domain, rootfs, instances, action, monitor, checks, "
            + "start_timeout_s, env, ports, memory_mb, disk_mb, max_pids, cpu_weight, placement_tags, routes, "
            + "annotation, log_guid, metrics_guid, epoch, version, created_at, updated_at, definition_version, "
            + "autoscaling";

    private final JdbcTemplate jdbc;

    public DesiredLrpRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** One desired LRP, if it exists. */
    public Optional<DesiredLrpRow> find(String processGuid) {
        return jdbc.query("SELECT " + COLUMNS + " FROM desired_lrps WHERE process_guid = ?", DesiredLrpRows::map,
                processGuid).stream().findFirst();
    }

    /** Only the modification tag: what a conditional read compares. */
    public Optional<ModificationTag> modificationTag(String processGuid) {
        return tag(processGuid).map(Tag::modificationTag);
    }

    /**
     * The modification tag, and whether the LRP is autoscaled: the autoscaler's status, which its single read shows,
     * changes without a new version.
     */
    public Optional<Tag> tag(String processGuid) {
        return jdbc.query("SELECT epoch, version, autoscaling IS NOT NULL FROM desired_lrps WHERE process_guid = ?",
                (rs, row) -> new Tag(new ModificationTag(UUID.fromString(rs.getString(1)), rs.getLong(2)),
                        rs.getBoolean(3)), processGuid).stream().findFirst();
    }

    /** A desired LRP's modification tag and whether it has an autoscaling policy. */
    public record Tag(ModificationTag modificationTag, boolean autoscaled) {
    }

    /**
     * Up to {@code limit} desired LRPs in process_guid order, of one domain or of all when {@code domain} is null,
     * starting after {@code afterProcessGuid} (from the start when null).
     */
    public List<DesiredLrpRow> page(String domain, String afterProcessGuid, int limit) {
        List<Object> args = new ArrayList<>();
        List<String> where = new ArrayList<>();
        if (domain != null) {
            where.add("domain = ?");
            args.add(domain);
        }
        if (afterProcessGuid != null) {
            where.add("process_guid > ?");
            args.add(afterProcessGuid);
        }
        args.add(limit);
        String filter = where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where);
        return jdbc.query("SELECT " + COLUMNS + " FROM desired_lrps" + filter + " ORDER BY process_guid LIMIT ?",
                DesiredLrpRows::map, args.toArray());
    }

    /**
     * How many desired LRPs there are, of one domain or of all when {@code domain} is null: a count, not a
     * {@link #fingerprint} (which hashes every row; at 100,000 LRPs 6 ms against 64-138 ms).
     */
    public long count(String domain) {
        String sql = "SELECT count(*) FROM desired_lrps";
        Long n = domain == null ? jdbc.queryForObject(sql, Long.class)
                : jdbc.queryForObject(sql + " WHERE domain = ?", Long.class, domain);
        return n == null ? 0 : n;
    }

    /** The fingerprint of every desired LRP, or of one domain's (see {@link ListFingerprint}). */
    public ListFingerprint fingerprint(String domain) {
        String sql = "SELECT count(*), coalesce(sum(hashtextextended(process_guid || '.' || epoch || '.' || version, "
                + "0)), 0)::text FROM desired_lrps";
        return domain == null ? jdbc.queryForObject(sql, ActualLrpRows::fingerprint)
                : jdbc.queryForObject(sql + " WHERE domain = ?", ActualLrpRows::fingerprint, domain);
    }

    /** The definitions of those of {@code processGuids} that exist, in one query. */
    public Map<String, DesiredLrpDefinition> definitions(Collection<String> processGuids) {
        Map<String, DesiredLrpDefinition> found = new HashMap<>();
        if (processGuids.isEmpty()) {
            return found;
        }
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT " + COLUMNS + " FROM desired_lrps WHERE process_guid = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", processGuids.toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> {
            DesiredLrpRow row = map(rs, 0);
            found.put(row.processGuid(), row.definition());
        });
        return found;
    }

    /**
     * The definitions of these definition versions (SPEC 14), in one query, each with the life of the LRP it belongs to
     * (its epoch): the LRP's own fields with the deployable ones of that version. A version the history no longer keeps
     * (and that is not the current one) is missing, as is a deleted LRP: nothing is ever served under a version it is
     * not.
     */
    public Map<DefinitionVersion, DefinitionAt> definitionsAt(Collection<DefinitionVersion> versions) {
        Map<DefinitionVersion, DefinitionAt> found = new HashMap<>();
        if (versions.isEmpty()) {
            return found;
        }
        List<DefinitionVersion> all = List.copyOf(new java.util.LinkedHashSet<>(versions));
        jdbc.query(con -> {
            var ps = con.prepareStatement(AT_VERSION);
            ps.setArray(1, con.createArrayOf("varchar", all.stream().map(DefinitionVersion::processGuid).toArray()));
            ps.setArray(2, con.createArrayOf("int4", all.stream().map(DefinitionVersion::version).toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> {
            DesiredLrpRow row = map(rs, 0);
            found.put(new DefinitionVersion(row.processGuid(), rs.getInt(26)),
                    new DefinitionAt(new DefinitionId(row.epoch(), rs.getInt(26)), row.definition()));
        });
        return found;
    }

    /** One definition version of one life of a desired LRP: what an instance of it runs. */
    public record DefinitionAt(DefinitionId id, DesiredLrpDefinition definition) {
    }

    private static final String AT_VERSION = "SELECT d.process_guid, d.domain, d.rootfs, d.instances, "
            + java.util.stream.Stream.of("action", "monitor", "checks", "start_timeout_s", "env", "ports", "memory_mb",
                    "disk_mb", "max_pids", "cpu_weight", "placement_tags")
                    .map(c -> "CASE WHEN h.process_guid IS NULL THEN d." + c + " ELSE h." + c + " END")
                    .collect(java.util.stream.Collectors.joining(", "))
            + ", d.routes, d.annotation, d.log_guid, d.metrics_guid, d.epoch, d.version, d.created_at, d.updated_at, "
            + "d.definition_version, d.autoscaling, k.v "
            + "FROM unnest(?::varchar[], ?::int[]) AS k(g, v) JOIN desired_lrps d ON d.process_guid = k.g "
            + "LEFT JOIN desired_lrp_definitions h ON h.process_guid = k.g AND h.definition_version = k.v "
            + "WHERE h.process_guid IS NOT NULL OR k.v = d.definition_version";

    /** Calls {@code counts} with every desired LRP's process_guid, domain and instance count. */
    public void forEachInstanceCount(InstanceCounts counts) {
        jdbc.query("SELECT process_guid, domain, instances FROM desired_lrps",
                (RowCallbackHandler) rs -> counts.accept(rs.getString(1), rs.getString(2), rs.getInt(3)));
    }

    /** Receives one desired LRP's instance count. */
    @FunctionalInterface
    public interface InstanceCounts {
        void accept(String processGuid, String domain, int instances);
    }

    private static DesiredLrpRow map(ResultSet rs, int row) throws SQLException {
        return new DesiredLrpRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getInt(8), rs.getString(9), rs.getString(10), rs.getInt(11),
                rs.getInt(12), rs.getInt(13), rs.getInt(14), rs.getString(15), rs.getString(16), rs.getString(17),
                rs.getString(18), rs.getString(19), UUID.fromString(rs.getString(20)), rs.getLong(21),
                rs.getTimestamp(22).toInstant(), rs.getTimestamp(23).toInstant(), rs.getInt(24), rs.getString(25));
    }
}
