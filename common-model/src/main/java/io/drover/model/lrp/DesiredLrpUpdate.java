package io.drover.model.lrp;

import java.util.Optional;

/**
 * What an update may change (as in Diego, plus the autoscaling policy of SPEC 17); {@code null} leaves a field as it
 * is. {@code autoscaling}: null leaves the policy, an empty optional removes it, a value sets it.
 */
public record DesiredLrpUpdate(Integer instances, String routes, String annotation,
        Optional<AutoscalingPolicy> autoscaling) {

    /** An update that leaves the autoscaling policy as it is. */
    public DesiredLrpUpdate(Integer instances, String routes, String annotation) {
        this(instances, routes, annotation, null);
    }

    /** A scale to {@code instances}, nothing else. */
    public static DesiredLrpUpdate scale(int instances) {
        return new DesiredLrpUpdate(instances, null, null, null);
    }
}
