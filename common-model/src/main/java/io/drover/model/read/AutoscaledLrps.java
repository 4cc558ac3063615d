package io.drover.model.read;

import io.drover.model.autoscale.Recommendation;
import io.drover.model.json.Json;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.ModificationTag;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

/**
 * What one autoscaler tick reads, in four index scans whatever the number of autoscaled LRPs: their policies, sizes and
 * modification tags; their instance slots with the latest usage figures of each slot's current incarnation (what the
 * reps sampled into {@code instance_usage}); which of them a deployment is replacing; and what the autoscaler decided
 * for them before (its stabilisation windows' proposals and its last scale).
 */
public class AutoscaledLrps {

    private static final String POLICIES = "SELECT process_guid, instances, autoscaling, epoch, version "
            + "FROM desired_lrps WHERE autoscaling IS NOT NULL";
    private static final String INSTANCES = "SELECT a.process_guid, a.state, a.since, u.cpu_percent, "
            + "u.memory_bytes, u.memory_limit_bytes FROM actual_lrps a LEFT JOIN instance_usage u "
            + "ON u.instance_guid = a.instance_guid AND u.process_guid = a.process_guid "
            + "WHERE a.process_guid = ANY (?::varchar[])";
    private static final String DEPLOYING = "SELECT process_guid FROM deployments WHERE process_guid = ANY "
            + "(?::varchar[]) AND state IN ('RUNNING', 'PAUSED', 'WAITING_FOR_PROMOTION')";
    private static final String STATES = "SELECT process_guid, recommendations, last_scale_at, last_scale_from, "
            + "last_scale_to, last_scale_reason FROM autoscaler_states WHERE process_guid = ANY (?::varchar[])";

    private final JdbcTemplate jdbc;

    public AutoscaledLrps(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Every autoscaled LRP with what its decision needs. */
    public List<AutoscaledLrp> all() {
        Map<String, AutoscaledLrp.Builder> lrps = new HashMap<>();
        jdbc.query(POLICIES, (RowCallbackHandler) rs -> lrps.put(rs.getString(1), new AutoscaledLrp.Builder(
                rs.getString(1), rs.getInt(2), Json.read(rs.getString(3), AutoscalingPolicy.class),
                new ModificationTag(UUID.fromString(rs.getString(4)), rs.getLong(5)))));
        if (lrps.isEmpty()) {
            return List.of();
        }
        String[] guids = lrps.keySet().toArray(String[]::new);
        query(INSTANCES, guids, rs -> lrps.get(rs.getString(1)).slots.add(instance(rs)));
        Set<String> deploying = new HashSet<>();
        query(DEPLOYING, guids, rs -> deploying.add(rs.getString(1)));
        query(STATES, guids, rs -> lrps.get(rs.getString(1)).state = new AutoscaledLrp.Previous(
                Recommendation.fromJson(rs.getString(2)), AutoscalerStatuses.instant(rs, 3),
                AutoscalerStatuses.integer(rs, 4), AutoscalerStatuses.integer(rs, 5), rs.getString(6)));
        List<AutoscaledLrp> all = new ArrayList<>(lrps.size());
        lrps.values().forEach(b -> all.add(b.build(deploying.contains(b.processGuid))));
        all.sort(java.util.Comparator.comparing(AutoscaledLrp::processGuid));
        return all;
    }

    private void query(String sql, String[] guids, RowCallbackHandler each) {
        jdbc.query(con -> {
            var ps = con.prepareStatement(sql);
            ps.setArray(1, con.createArrayOf("varchar", guids));
            return ps;
        }, each);
    }

    private static AutoscaledLrp.Instance instance(ResultSet rs) throws SQLException {
        Double cpu = AutoscalerStatuses.decimal(rs, 4);
        long limit = rs.getLong(6);
        Double memory = cpu == null || limit <= 0 ? null : rs.getLong(5) * 100.0 / limit;
        return new AutoscaledLrp.Instance(ActualLrpState.valueOf(rs.getString(2)), rs.getTimestamp(3).toInstant(), cpu,
                memory);
    }
}
