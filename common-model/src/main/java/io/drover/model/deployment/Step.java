package io.drover.model.deployment;

import java.time.Instant;
import java.util.List;

/**
 * What one step of a deployment does: the slots to replace while their old instance keeps serving ({@code surge}),
 * those to replace in place ({@code replace}: not serving, or within {@code max_unavailable}), the twins to remove
 * (their slot's new instance is updated), the missing slots to create, and the verdict. {@code progressAt} is when the
 * deployment last progressed (the progress deadline counts from it).
 */
public record Step(List<Integer> surge, List<Integer> replace, List<Integer> removeTwins, List<Integer> create,
        Verdict verdict, String reason, Instant progressAt, Counts counts) {

    /** Where the deployment goes after this step. */
    public enum Verdict {
        CONTINUE, SUCCEEDED, FAILED, WAITING_FOR_PROMOTION
    }

    /**
     * The deployment's counts (SPEC 14): the desired instances, those updated (new version, RUNNING for
     * min_healthy_time), those serving (old or new), and new ones that crashed.
     */
    public record Counts(int desired, int updated, int healthy, int unhealthy) {
    }

    /** Nothing to do. */
    public boolean idle() {
        return surge.isEmpty() && replace.isEmpty() && removeTwins.isEmpty() && create.isEmpty();
    }
}
