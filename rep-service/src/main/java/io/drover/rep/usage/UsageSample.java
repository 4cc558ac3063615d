package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import java.util.List;
import java.util.Set;

/**
 * What one sampling round saw: every container of the executors that measure real processes ({@code measured}), and
 * of the executors whose figures are steady only what began and stopped running since the last round
 * ({@code started}, {@code ended}) and how many run ({@code steadyRunning}); in a full round also their every running
 * container ({@code steadyAll}, else empty).
 */
record UsageSample(List<InstanceUsage> measured, List<InstanceUsage> started, Set<String> ended,
        List<InstanceUsage> steadyAll, long steadyRunning) {

    /** A round of measured executors only. */
    static UsageSample measured(List<InstanceUsage> measured) {
        return new UsageSample(measured, List.of(), Set.of(), List.of(), 0);
    }

    /** How many instances the round's cells hold. */
    long instances() {
        return measured.size() + steadyRunning;
    }
}
