package io.drover.model.lrp;

/**
 * How the converger's leader scales a desired LRP on its instances' load (SPEC 17): between {@code minInstances} and
 * {@code maxInstances}, towards a mean CPU (percent of one core, of the instances' {@code cpu_percent}) and/or memory
 * (percent of {@code memory_limit_bytes}) per instance. {@code scaleUpDelay} and {@code scaleDownDelay} are the
 * stabilisation windows in seconds: a size is taken only once every recommendation of that long agreed with it.
 * Already validated by the receptor. While a policy is set, the autoscaler owns {@code instances} within the range.
 */
public record AutoscalingPolicy(int minInstances, int maxInstances, Integer targetCpuPercent,
        Integer targetMemoryPercent, int scaleUpDelay, int scaleDownDelay) {

    /** HPA's default scale-down stabilisation window (seconds): a drop in load waits this long. */
    public static final int DEFAULT_SCALE_DOWN_DELAY = 300;

    /** Whether {@code instances} lies in [min, max]. */
    public boolean admits(int instances) {
        return instances >= minInstances && instances <= maxInstances;
    }

    /** {@code instances} brought into [min, max]. */
    public int clamp(int instances) {
        return Math.max(minInstances, Math.min(maxInstances, instances));
    }

    /** {@code [1, 10]}: the range, as messages name it. */
    public String range() {
        return "[" + minInstances + ", " + maxInstances + "]";
    }
}
