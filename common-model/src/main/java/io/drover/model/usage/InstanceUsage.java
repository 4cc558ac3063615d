package io.drover.model.usage;

import java.time.Instant;

/**
 * The latest usage figures of one instance, as its rep sampled them.
 *
 * @param processGuid the desired LRP
 * @param index the instance index
 * @param instanceGuid the incarnation the figures belong to
 * @param cellId the cell running it
 * @param cpuPercent CPU time over the last sampling interval, in percent of one core (two busy cores read 200)
 * @param memoryBytes the memory it holds: the cgroup's usage less inactive page cache, or the RSS of its process tree
 * @param memoryLimitBytes its memory limit ({@code memory_mb}), 0 when it has none
 * @param diskBytes the size of its instance directory (working directory and logs)
 * @param startedAt when the instance was started, for its uptime
 */
public record InstanceUsage(String processGuid, int index, String instanceGuid, String cellId, double cpuPercent,
        long memoryBytes, long memoryLimitBytes, long diskBytes, Instant startedAt) {
}
