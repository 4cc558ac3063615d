package io.drover.receptor.ui;

import io.drover.model.autoscale.AutoscalingStatus;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.read.AutoscalerStatuses;
import io.drover.model.read.DesiredLrpRow;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The LRP page's autoscaling part (SPEC 17): the policy and the autoscaler's last decision in words, and the chart of
 * its last 30 minutes of samples; nothing for an LRP without a policy.
 */
@Component
class AutoscalingPanel {

    private final AutoscalerStatuses statuses;
    private final Clock clock;

    AutoscalingPanel(AutoscalerStatuses statuses, Clock clock) {
        this.statuses = statuses;
        this.clock = clock;
    }

    /** What the page shows of the LRP's autoscaling, empty when it has no policy. */
    Optional<View> of(DesiredLrpRow row) {
        AutoscalingPolicy policy = row.definition().autoscaling();
        if (policy == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        String guid = row.processGuid();
        return Optional.of(new View(policy(policy), status(statuses.status(guid).orElse(null), policy, now),
                UsageChart.of(statuses.samples(guid, now.minus(UsageChart.WINDOW)), policy, now)));
    }

    /** The panel: the policy and the last decision in words, and the chart. */
    record View(String policy, String status, UsageChart chart) {
    }

    static String policy(AutoscalingPolicy p) {
        StringBuilder text = new StringBuilder(p.minInstances() + "–" + p.maxInstances() + " instances at");
        if (p.targetCpuPercent() != null) {
            text.append(" cpu ").append(p.targetCpuPercent()).append('%');
        }
        if (p.targetMemoryPercent() != null) {
            text.append(p.targetCpuPercent() != null ? "," : "").append(" memory ").append(p.targetMemoryPercent())
                    .append('%');
        }
        return text.append(" per instance; up after ").append(p.scaleUpDelay()).append(" s, down after ")
                .append(p.scaleDownDelay()).append(" s of agreeing figures").toString();
    }

    static String status(AutoscalingStatus s, AutoscalingPolicy p, Instant now) {
        if (s == null) {
            return "Not evaluated yet.";
        }
        StringBuilder text = new StringBuilder("Wants ").append(s.desiredInstances()).append(" (")
                .append(s.condition()).append("), looked ").append(Display.ago(s.evaluatedAt(), now)).append(" ago; ");
        if (s.countedInstances() == 0) {
            text.append("no instance measured yet.");
        } else {
            text.append("mean");
            if (p.targetCpuPercent() != null) {
                text.append(" cpu ").append(UsageChart.percent(s.cpuPercent()));
            }
            if (p.targetMemoryPercent() != null) {
                text.append(p.targetCpuPercent() != null ? "," : "").append(" memory ")
                        .append(UsageChart.percent(s.memoryPercent()));
            }
            text.append(" over ").append(s.countedInstances()).append(s.countedInstances() == 1 ? " instance."
                    : " instances.");
        }
        if (s.lastScaleAt() != null) {
            text.append(" Last scaled ").append(s.lastScaleFrom()).append(" → ").append(s.lastScaleTo()).append(' ')
                    .append(Display.ago(s.lastScaleAt(), now)).append(" ago: ").append(s.lastScaleReason());
        }
        return text.toString();
    }
}
