package io.drover.model.deployment;

import java.time.Duration;

/**
 * How a deployment rolls (SPEC 14): at most {@code maxSurge} instances replaced at once while their old incarnation
 * keeps serving (at least 1), at most {@code maxUnavailable} not serving because of the rollout, each new instance
 * RUNNING for {@code minHealthyTime} before it counts as updated, failed when no instance got updated for
 * {@code progressDeadline}, then reverted to the previous version when {@code autoRevert}; with {@code canary} > 0 only
 * that many instances are replaced until the deployment is promoted.
 */
public record Strategy(Amount maxSurge, Amount maxUnavailable, Duration minHealthyTime, Duration progressDeadline,
        boolean autoRevert, int canary) {

    /** The defaults: 25 % surge, none unavailable, 10 s healthy, 10 min deadline, auto-revert, no canary. */
    public static final Strategy DEFAULT = new Strategy(new Amount(25, true), new Amount(0, false),
            Duration.ofSeconds(10), Duration.ofMinutes(10), true, 0);

    public Strategy {
        if (minHealthyTime.isNegative() || progressDeadline.compareTo(Duration.ofSeconds(1)) < 0 || canary < 0) {
            throw new IllegalArgumentException("min_healthy_time must be >= 0, progress_deadline >= 1 s, canary >= 0");
        }
    }

    /**
     * How the automatic revert of a deployment by this strategy rolls back: at the same pace, with no canary and no
     * revert of its own, and with at least the default progress deadline. A short deadline is how a user asks to judge a
     * new version quickly; held against the way back to the version that worked, it would abandon that way the moment a
     * busy cell is slow to start the old version (and a failed revert leaves nowhere else to go).
     */
    public Strategy revert() {
        Duration deadline = progressDeadline.compareTo(DEFAULT.progressDeadline) < 0 ? DEFAULT.progressDeadline
                : progressDeadline;
        return new Strategy(maxSurge, maxUnavailable, minHealthyTime, deadline, false, 0);
    }

    /** How many slots may be replaced at once while their old instance serves: at least 1. */
    public int surge(int instances) {
        return Math.max(1, maxSurge.of(instances, true));
    }

    /** How many slots the rollout may leave without a serving instance. */
    public int unavailable(int instances) {
        return Math.min(instances, maxUnavailable.of(instances, false));
    }
}
