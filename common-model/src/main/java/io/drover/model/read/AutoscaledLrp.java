package io.drover.model.read;

import io.drover.model.autoscale.Recommendation;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.ModificationTag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One autoscaled LRP as an autoscaler tick reads it ({@link AutoscaledLrps}).
 *
 * @param instances the current count ({@code instances}) and {@code modificationTag} the version it was read at: a
 *     scale is a compare-and-swap on it
 * @param slots every instance slot's record with the figures of its current incarnation (null: none sampled)
 * @param deploying a deployment of the LRP is RUNNING, PAUSED or WAITING_FOR_PROMOTION
 * @param previous what the autoscaler stored at its last tick ({@link Previous#NONE} before the first)
 */
public record AutoscaledLrp(String processGuid, int instances, AutoscalingPolicy policy,
        ModificationTag modificationTag, List<Instance> slots, boolean deploying, Previous previous) {

    /**
     * An instance record: its state, since when, and its latest figures: CPU in percent of one core, memory in percent
     * of its limit (null without a limit).
     */
    public record Instance(ActualLrpState state, Instant since, Double cpuPercent, Double memoryPercent) {
    }

    /** What the autoscaler kept from its earlier ticks: its proposals, oldest first, and its last scale. */
    public record Previous(List<Recommendation> recommendations, Instant lastScaleAt, Integer lastScaleFrom,
            Integer lastScaleTo, String lastScaleReason) {

        public static final Previous NONE = new Previous(List.of(), null, null, null, null);

        public Previous {
            recommendations = List.copyOf(recommendations);
        }
    }

    static final class Builder {

        final String processGuid;
        final int instances;
        final AutoscalingPolicy policy;
        final ModificationTag tag;
        final List<Instance> slots = new ArrayList<>();
        Previous state = Previous.NONE;

        Builder(String processGuid, int instances, AutoscalingPolicy policy, ModificationTag tag) {
            this.processGuid = processGuid;
            this.instances = instances;
            this.policy = policy;
            this.tag = tag;
        }

        AutoscaledLrp build(boolean deploying) {
            return new AutoscaledLrp(processGuid, instances, policy, tag, List.copyOf(slots), deploying, state);
        }
    }
}
