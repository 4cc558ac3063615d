package io.drover.verify.check;

import java.util.List;
import java.util.Map;

/**
 * What one check concluded: its anomalies, or why it was skipped (null when it ran), and figures worth reporting
 * (how many histories, instances, tasks it judged).
 */
public record CheckResult(String check, List<Anomaly> anomalies, String skipped, Map<String, Object> figures) {

    public CheckResult {
        anomalies = List.copyOf(anomalies);
        figures = Map.copyOf(figures);
    }

    public static CheckResult ran(String check, List<Anomaly> anomalies, Map<String, Object> figures) {
        return new CheckResult(check, anomalies, null, figures);
    }

    public static CheckResult skipped(String check, String why) {
        return new CheckResult(check, List.of(), why, Map.of());
    }

    public boolean wasSkipped() {
        return skipped != null;
    }
}
