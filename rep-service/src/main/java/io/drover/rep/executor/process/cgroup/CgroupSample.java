package io.drover.rep.executor.process.cgroup;

/**
 * One reading of an instance's cgroup accounting.
 *
 * @param memoryBytes memory charged to it less inactive page cache (what it cannot give back without swapping)
 * @param cpuNanos CPU time its processes have used since the cgroup was made, dead ones included
 */
public record CgroupSample(long memoryBytes, long cpuNanos) {
}
