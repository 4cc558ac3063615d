package io.drover.model.lrp;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a crashed instance is restarted (SPEC 3.4). Pure: every number is a constructor argument, {@link #defaults()}
 * gives the specified ones. With the defaults: crash 1 and 2 restart at once, crash 3 waits 30 s, then the wait
 * doubles (60 s, 2 min, 4 min, 8 min) up to 16 min, and from crash 200 on the instance is never restarted.
 *
 * @param immediateRestarts crashes (counted from 1) that restart at once
 * @param initialDelay the wait after the first crash that is not restarted at once
 * @param maxDelay the longest wait
 * @param maxCrashes from this crash count on the instance stays CRASHED for good
 * @param resetAfter an instance that ran longer than this before crashing starts counting from 1 again
 */
public record CrashRestartPolicy(int immediateRestarts, Duration initialDelay, Duration maxDelay, int maxCrashes,
        Duration resetAfter) {

    public CrashRestartPolicy {
        if (immediateRestarts < 0 || maxCrashes < 1 || initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("inconsistent crash restart policy");
        }
    }

    public static CrashRestartPolicy defaults() {
        return new CrashRestartPolicy(2, Duration.ofSeconds(30), Duration.ofMinutes(16), 200, Duration.ofMinutes(5));
    }

    /** The crash count after a crash, given the count before and how long the instance had been running. */
    public int crashCountAfterCrash(int crashCountBefore, Duration runningFor) {
        return runningFor != null && runningFor.compareTo(resetAfter) > 0 ? 1 : crashCountBefore + 1;
    }

    /** Whether the instance is restarted at once (UNCLAIMED + auction) rather than waiting as CRASHED. */
    public boolean restartsImmediately(int crashCount) {
        return crashCount <= immediateRestarts && crashCount < maxCrashes;
    }

    /** The wait after the crash that brought the count to {@code crashCount}; empty when it is never restarted. */
    public Optional<Duration> delay(int crashCount) {
        if (crashCount >= maxCrashes) {
            return Optional.empty();
        }
        if (crashCount <= immediateRestarts) {
            return Optional.of(Duration.ZERO);
        }
        int doublings = Math.min(crashCount - immediateRestarts - 1, 30);
        Duration delay = initialDelay.multipliedBy(1L << doublings);
        return Optional.of(delay.compareTo(maxDelay) > 0 ? maxDelay : delay);
    }

    /** When a CRASHED instance that crashed at {@code crashedAt} becomes due for a restart; empty = never. */
    public Optional<Instant> nextRestartAt(int crashCount, Instant crashedAt) {
        return delay(crashCount).map(crashedAt::plus);
    }

    /** Whether a CRASHED instance is due for a restart at {@code now}. */
    public boolean isDue(int crashCount, Instant crashedAt, Instant now) {
        return nextRestartAt(crashCount, crashedAt).map(at -> !now.isBefore(at)).orElse(false);
    }
}
