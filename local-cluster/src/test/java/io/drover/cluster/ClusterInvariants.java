package io.drover.cluster;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerState;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC 12's invariants, checked from outside the services: the database with plain JDBC, the cells through their
 * executors. {@link #violations()} lists what is wrong now; tests wait until it is empty.
 */
final class ClusterInvariants {

    private final LocalCluster cluster;

    ClusterInvariants(LocalCluster cluster) {
        this.cluster = cluster;
    }

    /** Everything that breaks an invariant at this moment (empty = the cluster has converged and is consistent). */
    List<String> violations() {
        List<String> problems = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres")) {
            problems.addAll(instancesMatchDesired(db));
            Map<String, String> owners = owners(db);
            problems.addAll(containersAreOwned(owners));
            problems.addAll(eventsTellTheStory(db));
        } catch (SQLException e) {
            problems.add("database: " + e);
        }
        return problems;
    }

    /** Every desired LRP has exactly {@code instances} actuals, all RUNNING, at indexes 0..instances-1; no others. */
    private static List<String> instancesMatchDesired(Connection db) throws SQLException {
        return strings(db, """
                SELECT coalesce(d.process_guid, a.process_guid) || ' desired=' || coalesce(d.instances, 0)
                       || ' running=' || count(a.state) FILTER (WHERE a.state = 'RUNNING')
                       || ' actuals=' || count(a.state)
                FROM desired_lrps d FULL JOIN actual_lrps a ON a.process_guid = d.process_guid
                GROUP BY d.process_guid, a.process_guid, d.instances
                HAVING count(a.state) FILTER (WHERE a.state = 'RUNNING' AND a.instance_index < d.instances)
                       <> coalesce(d.instances, 0)
                    OR count(a.state) <> coalesce(d.instances, 0)""");
    }

    /** instance_guid -> cell of every CLAIMED or RUNNING record. */
    private static Map<String, String> owners(Connection db) throws SQLException {
        Map<String, String> owners = new HashMap<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT instance_guid, cell_id FROM actual_lrps WHERE state IN ('CLAIMED', 'RUNNING')")) {
            while (rs.next()) {
                owners.put(rs.getString(1), rs.getString(2));
            }
        }
        return owners;
    }

    /** No live container without a CLAIMED/RUNNING record owning it; never two live containers for one index. */
    private List<String> containersAreOwned(Map<String, String> owners) {
        List<String> problems = new ArrayList<>();
        Set<ActualLrpKey> seen = new HashSet<>();
        for (ConfigurableApplicationContext rep : cluster.reps()) {
            if (rep == null || !rep.isActive()) {
                continue;
            }
            for (CellAgent agent : rep.getBean(CellAgents.class).all()) {
                for (Container c : agent.executor().containers()) {
                    if (c.state() != ContainerState.STARTING && c.state() != ContainerState.RUNNING) {
                        continue;
                    }
                    if (!seen.add(c.key())) {
                        problems.add("two live containers for " + c.key());
                    }
                    if (!agent.cellId().equals(owners.get(c.instanceGuid()))) {
                        problems.add("orphan container " + c.key() + " " + c.instanceGuid() + " on " + agent.cellId());
                    }
                }
            }
        }
        return problems;
    }

    /**
     * Per instance, each audit row starts where the previous one ended, and the last ends in the current state. A crash
     * is told twice (crashed, then changed, as Diego does): the chain follows the change.
     */
    private static List<String> eventsTellTheStory(Connection db) throws SQLException {
        List<String> problems = new ArrayList<>();
        Map<String, String> current = new HashMap<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT process_guid || '/' || instance_index, state FROM actual_lrps")) {
            while (rs.next()) {
                current.put(rs.getString(1), rs.getString(2));
            }
        }
        Map<String, String> last = new HashMap<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT process_guid || '/' || instance_index, from_state, to_state, id FROM lrp_events
                WHERE entity = 'actual' AND event_type <> 'actual_lrp_crashed' ORDER BY id""")) {
            while (rs.next()) {
                String key = rs.getString(1);
                if (last.containsKey(key) && !Objects.equals(last.get(key), rs.getString(2))) {
                    problems.add("event " + rs.getLong(4) + " of " + key + " starts at " + rs.getString(2)
                            + " but the previous ended at " + last.get(key));
                }
                last.put(key, rs.getString(3));
            }
        }
        last.forEach((key, state) -> {
            if (!Objects.equals(state, current.get(key))) {
                problems.add("last event of " + key + " ends at " + state + ", record is " + current.get(key));
            }
        });
        return problems;
    }

    private static List<String> strings(Connection db, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
