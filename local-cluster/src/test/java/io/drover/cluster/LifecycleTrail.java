package io.drover.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What happened to each instance, told twice: by the {@code lrp_events} audit rows and by the lifecycle topic. Both
 * are written in the same transaction (the event through the outbox), so once the relay has caught up the two must
 * tell the same story, step for step and in the same order; a message the outbox failed to deliver shows as a gap.
 * Instances are keyed {@code process_guid/index} ({@code process_guid/-} for the desired LRP itself), a step is
 * {@code event_type} plus the state after it.
 */
final class LifecycleTrail {

    private LifecycleTrail() {
    }

    /** The audit trail of every LRP whose process_guid starts with {@code prefix}, in commit order per instance. */
    static Map<String, List<String>> inDatabase(LocalCluster cluster, String prefix) throws SQLException {
        Map<String, List<String>> trail = new TreeMap<>();
        try (Connection db = DriverManager.getConnection(cluster.jdbcUrl(), "postgres", "postgres");
                PreparedStatement s = db.prepareStatement("""
                        SELECT process_guid, instance_index, event_type, to_state FROM lrp_events
                        WHERE process_guid LIKE ? ORDER BY id""")) {
            s.setString(1, prefix + "%");
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Object index = rs.getObject(2);
                    trail.computeIfAbsent(rs.getString(1) + "/" + (index == null ? "-" : index), k -> new ArrayList<>())
                            .add(step(rs.getString(3), rs.getString(4)));
                }
            }
        }
        return trail;
    }

    /**
     * The same trail as read from the whole lifecycle topic. Redeliveries (the relay may send a message twice, with the
     * same event id) count once, where they first appeared.
     */
    static Map<String, List<String>> onKafka(LocalCluster cluster, String prefix) {
        return KafkaProbe.trail(cluster.kafkaBootstrapServers(), prefix);
    }

    private static String step(String type, String toState) {
        return toState == null ? type : type + ">" + toState;
    }
}
