package io.drover.model.lrp;

/**
 * An instance count outside the range of the LRP's autoscaling policy: while a policy is set, the autoscaler owns
 * {@code instances} within [min, max] (SPEC 17). The API's 409.
 */
public class AutoscaledInstancesException extends RuntimeException {

    public AutoscaledInstancesException(String processGuid, int instances, AutoscalingPolicy policy) {
        super("instances " + instances + " is outside the range " + policy.range() + " of the autoscaling policy of "
                + processGuid + " (the autoscaler owns instances while a policy is set): change the policy's "
                + "min_instances/max_instances or remove it (\"autoscaling\": null) first");
    }
}
