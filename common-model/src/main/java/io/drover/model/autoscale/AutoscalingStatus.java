package io.drover.model.autoscale;

import java.time.Instant;

/**
 * What the autoscaler last made of one autoscaled LRP (SPEC 17, {@code autoscaling_status}).
 *
 * @param evaluatedAt when it last looked
 * @param cpuPercent the mean {@code cpu_percent} of the instances it counted, null without figures
 * @param memoryPercent the mean memory in percent of {@code memory_limit_bytes}, null without figures
 * @param countedInstances the RUNNING instances past their start whose figures it counted
 * @param desiredInstances the instance count it computed (stabilised, capped, within the policy's range)
 * @param condition why it holds or moves ({@code "within tolerance"}, {@code "paused: deployment in progress"}, ...)
 * @param lastScaleAt when it last changed {@code instances}, null if never
 * @param lastScaleFrom the count before that change
 * @param lastScaleTo the count after it
 * @param lastScaleReason the figures that decided it
 */
public record AutoscalingStatus(Instant evaluatedAt, Double cpuPercent, Double memoryPercent, int countedInstances,
        int desiredInstances, String condition, Instant lastScaleAt, Integer lastScaleFrom, Integer lastScaleTo,
        String lastScaleReason) {
}
