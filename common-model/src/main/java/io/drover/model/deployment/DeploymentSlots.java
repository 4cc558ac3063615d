package io.drover.model.deployment;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * The slots deployments decide on, read in one query for any number of LRPs: each record's state, definition version
 * and since, with whether a deployment's twin serves the slot; and the twins no active deployment looks after any more.
 */
public class DeploymentSlots {

    private static final String SLOTS = """
            SELECT coalesce(a.process_guid, e.process_guid), coalesce(a.instance_index, e.instance_index), a.state,
                coalesce(a.definition_version, 0), a.since, coalesce(a.crash_count, 0), e.process_guid IS NOT NULL,
                coalesce(a.version, -1)
            FROM (SELECT * FROM actual_lrps WHERE process_guid = ANY (?)) a
            FULL JOIN (SELECT * FROM evacuating_lrps WHERE process_guid = ANY (?) AND kept_for = 'deployment'
                AND stop_requested IS NULL) e
                ON a.process_guid = e.process_guid AND a.instance_index = e.instance_index""";

    /** Twins kept for deployments of LRPs with no active deployment, whose slot's record runs: nobody releases them. */
    private static final String ORPHANS = """
            SELECT e.process_guid, e.instance_index, a.definition_version FROM evacuating_lrps e
            JOIN actual_lrps a ON a.process_guid = e.process_guid AND a.instance_index = e.instance_index
            WHERE e.kept_for = 'deployment' AND e.stop_requested IS NULL AND a.state = 'RUNNING' AND NOT EXISTS (SELECT 1 FROM deployments d
                WHERE d.process_guid = e.process_guid AND d.state IN ('RUNNING', 'PAUSED', 'WAITING_FOR_PROMOTION'))
            LIMIT ?""";

    private final JdbcTemplate jdbc;

    public DeploymentSlots(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The slots of these LRPs, by process_guid. */
    public Map<String, List<Slot>> of(Collection<String> processGuids) {
        Map<String, List<Slot>> found = new HashMap<>();
        if (processGuids.isEmpty()) {
            return found;
        }
        Object[] guids = processGuids.toArray();
        jdbc.query(con -> {
            var ps = con.prepareStatement(SLOTS);
            ps.setArray(1, con.createArrayOf("varchar", guids));
            ps.setArray(2, con.createArrayOf("varchar", guids));
            return ps;
        }, (RowCallbackHandler) rs -> {
            String state = rs.getString(3);
            Timestamp since = rs.getTimestamp(5);
            found.computeIfAbsent(rs.getString(1), g -> new ArrayList<>()).add(new Slot(rs.getInt(2),
                    state == null ? null : ActualLrpState.valueOf(state), rs.getInt(4),
                    since == null ? null : since.toInstant(), rs.getInt(6), rs.getBoolean(7), rs.getLong(8)));
        });
        return found;
    }

    /** How many instances these LRPs want, and their domains, by process_guid. */
    public Map<String, Desired> desired(Collection<String> processGuids) {
        Map<String, Desired> found = new HashMap<>();
        if (processGuids.isEmpty()) {
            return found;
        }
        jdbc.query(con -> {
            var ps = con.prepareStatement("SELECT process_guid, domain, instances FROM desired_lrps "
                    + "WHERE process_guid = ANY (?)");
            ps.setArray(1, con.createArrayOf("varchar", processGuids.toArray()));
            return ps;
        }, (RowCallbackHandler) rs -> found.put(rs.getString(1), new Desired(rs.getString(2), rs.getInt(3))));
        return found;
    }

    /** A desired LRP's domain and instance count. */
    public record Desired(String domain, int instances) {
    }

    /**
     * Up to {@code limit} twins kept for deployments that no active deployment will release, with the definition
     * version their slot's record runs (the release holds only while it still does).
     */
    public Map<ActualLrpKey, Integer> orphanTwins(int limit) {
        Map<ActualLrpKey, Integer> found = new java.util.LinkedHashMap<>();
        jdbc.query(ORPHANS, (RowCallbackHandler) rs -> found.put(ActualLrpKey.of(rs.getString(1), rs.getInt(2)),
                rs.getInt(3)), limit);
        return found;
    }
}
