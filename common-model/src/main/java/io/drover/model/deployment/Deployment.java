package io.drover.model.deployment;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * One deployment of a desired LRP (SPEC 14), as stored and as events carry it: it moves the LRP from definition
 * {@code fromVersion} to {@code toVersion} by its strategy's fields ({@code maxSurge} and {@code maxUnavailable} as
 * given, a count or a share; durations in seconds). {@code reverts} names the failed deployment an automatic revert
 * undoes; {@code progressAt} is when the progress deadline started counting.
 */
public record Deployment(UUID id, String processGuid, DeploymentState state, int fromVersion, int toVersion,
        String maxSurge, String maxUnavailable, long minHealthyTime, long progressDeadline, boolean autoRevert,
        int canary, boolean promoted, UUID reverts, String failureReason, String createdBy, Instant createdAt,
        Instant updatedAt, Instant progressAt, Instant finishedAt, long version) {

    static Deployment create(UUID id, String processGuid, int fromVersion, int toVersion, Strategy s, UUID reverts,
            String createdBy, Instant now) {
        return new Deployment(id, processGuid, DeploymentState.RUNNING, fromVersion, toVersion,
                s.maxSurge().toString(), s.maxUnavailable().toString(), s.minHealthyTime().toSeconds(),
                s.progressDeadline().toSeconds(), s.autoRevert(), s.canary(), false, reverts, null, createdBy, now, now,
                now, null, 0);
    }

    /** The strategy it rolls by. */
    public Strategy strategy() {
        return new Strategy(Amount.parse(maxSurge), Amount.parse(maxUnavailable), Duration.ofSeconds(minHealthyTime),
                Duration.ofSeconds(progressDeadline), autoRevert, canary);
    }

    /** This deployment in {@code to}; a final state records the time and the reason. */
    Deployment moved(DeploymentState to, String reason, Instant now) {
        return new Deployment(id, processGuid, to, fromVersion, toVersion, maxSurge, maxUnavailable, minHealthyTime,
                progressDeadline, autoRevert, canary, promoted, reverts, reason == null ? failureReason : reason,
                createdBy, createdAt, now, progressAt, to.isActive() ? null : now, version);
    }

    /** Promoted (its canaries proved healthy): it goes on, and the progress deadline counts from now. */
    Deployment promote(Instant now) {
        return new Deployment(id, processGuid, DeploymentState.RUNNING, fromVersion, toVersion, maxSurge,
                maxUnavailable, minHealthyTime, progressDeadline, autoRevert, canary, true, reverts, failureReason,
                createdBy, createdAt, now, now, finishedAt, version);
    }

    /** The progress deadline counts from {@code at}. */
    Deployment progressed(Instant at, Instant now) {
        return new Deployment(id, processGuid, state, fromVersion, toVersion, maxSurge, maxUnavailable, minHealthyTime,
                progressDeadline, autoRevert, canary, promoted, reverts, failureReason, createdBy, createdAt, now, at,
                finishedAt, version);
    }
}
