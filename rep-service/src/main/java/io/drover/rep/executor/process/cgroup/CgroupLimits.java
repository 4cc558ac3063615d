package io.drover.rep.executor.process.cgroup;

/**
 * What the kernel enforces on one instance, from its desired LRP: {@code memory_mb} as a hard memory limit (no swap),
 * {@code cpu_weight} as its CPU share against the cell's other instances, {@code max_pids} as a process count no fork
 * can pass. 0 means "none" for each, as in the desired LRP.
 */
public record CgroupLimits(long memoryBytes, int cpuWeight, int maxPids) {

    /** cgroup v1's default (and the share of an instance without a weight), also the scale of the weights. */
    static final int DEFAULT_SHARES = 1024;

    public static CgroupLimits of(int memoryMb, int cpuWeight, int maxPids) {
        return new CgroupLimits(Math.max(0, memoryMb) * 1024L * 1024L, cpuWeight, maxPids);
    }

    /**
     * {@code cpu.shares} (v1): weight w of 1..100 gets w % of the default 1024, so two busy instances share a CPU in
     * the ratio of their weights; 0 (unset) counts as 100, like an instance of a desired LRP that asks for nothing.
     */
    public int shares() {
        if (cpuWeight <= 0 || cpuWeight >= 100) {
            return DEFAULT_SHARES;
        }
        return Math.max(2, Math.round(DEFAULT_SHARES * cpuWeight / 100f));
    }

    /** {@code cpu.weight} (v2, 1..10000, default 100): the weight itself, 0 counting as 100. */
    int weight() {
        return cpuWeight <= 0 || cpuWeight >= 100 ? 100 : cpuWeight;
    }

    /** The pids limit as the kernel writes it: a number, or "max" for none. */
    String pidsMax() {
        return maxPids > 0 ? Integer.toString(maxPids) : "max";
    }
}
