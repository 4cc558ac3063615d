package io.drover.rep.executor;

import io.drover.model.lrp.ActualLrpKey;
import java.time.Instant;

/**
 * What one container uses, as its executor last measured it (SPEC 15: {@code GET /v1/actual_lrps/{guid}/metrics}).
 *
 * @param cpuPercent CPU time since the previous measurement (since the start, for the first), in percent of one core
 * @param memoryBytes memory it holds (cgroup usage less inactive page cache, or the RSS of its tree)
 * @param memoryLimitBytes its {@code memory_mb}, 0 for none
 * @param diskBytes size of its instance directory
 * @param startedAt when it was started
 */
public record ContainerUsage(ActualLrpKey key, String instanceGuid, double cpuPercent, long memoryBytes,
        long memoryLimitBytes, long diskBytes, Instant startedAt) {
}
