package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.UsageRound;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides what a sampling round writes: only figures that moved enough to matter since they were last written, and
 * the instances that are gone; every row (and a sweep) on the first round and then every {@code fullInterval}. Holds
 * what was last written of the measured instances, and the steady instances' changes not written yet, so a round that
 * failed to write is simply folded into the next. A steady instance (a simulated container, whose figures never move)
 * is written when it starts and removed when it ends and costs nothing in between: a round's cost follows what
 * changed, not what the cells hold. Not thread-safe: one reporter thread uses it.
 */
final class UsageRounds {

    private static final long MIB = 1024L * 1024L;

    private final Supplier<Collection<String>> cellIds;

    private final Duration fullInterval;

    /** What was last written of the measured instances (steady ones are not kept: they cannot have moved). */
    private final Map<String, InstanceUsage> written = new HashMap<>();

    /** Steady instances that started, and ended, since their last round that was written. */
    private final Map<String, InstanceUsage> startedSince = new LinkedHashMap<>();
    private final Set<String> endedSince = new HashSet<>();

    /** The steady instances of the round {@link #next} made last: not to be kept in {@link #written}. */
    private Set<String> steadyInRound = Set.of();

    private Instant lastFull;

    /** @param cellIds the cells whose rows the rounds write (asked at each round) */
    UsageRounds(Supplier<Collection<String>> cellIds, Duration fullInterval) {
        this.cellIds = cellIds;
        this.fullInterval = fullInterval;
    }

    /** Whether the round at {@code now} rewrites every row: the first one, and then every {@code fullInterval}. */
    boolean fullDue(Instant now) {
        return lastFull == null || !now.isBefore(lastFull.plus(fullInterval));
    }

    /** A round of measured instances only. */
    UsageRound next(List<InstanceUsage> current, Instant now) {
        return next(UsageSample.measured(current), now);
    }

    UsageRound next(UsageSample sample, Instant now) {
        sample.started().forEach(u -> {
            startedSince.put(u.instanceGuid(), u);
            endedSince.remove(u.instanceGuid());
        });
        sample.ended().forEach(guid -> {
            if (startedSince.remove(guid) == null) {
                endedSince.add(guid);
            }
        });
        boolean full = fullDue(now);
        List<InstanceUsage> steady = full ? sample.steadyAll() : List.copyOf(startedSince.values());
        List<InstanceUsage> upserts = new ArrayList<>(steady);
        for (InstanceUsage u : sample.measured()) {
            if (full || changed(written.get(u.instanceGuid()), u)) {
                upserts.add(u);
            }
        }
        Set<String> removed = new HashSet<>(written.keySet());
        sample.measured().forEach(u -> removed.remove(u.instanceGuid()));
        removed.addAll(endedSince);
        steadyInRound = new HashSet<>(steady.size() * 2);
        steady.forEach(u -> steadyInRound.add(u.instanceGuid()));
        return UsageRound.of(List.copyOf(cellIds.get()), upserts, removed, full);
    }

    /** The round reached the database: it is now what the table holds for these cells. */
    void written(UsageRound round, Instant now) {
        if (round.full()) {
            written.clear();
            startedSince.clear();
            endedSince.clear();
            lastFull = now;
        }
        round.removed().forEach(guid -> {
            written.remove(guid);
            endedSince.remove(guid);
        });
        for (InstanceUsage u : round.upserts()) {
            if (steadyInRound.contains(u.instanceGuid())) {
                startedSince.remove(u.instanceGuid());
            } else {
                written.put(u.instanceGuid(), u);
            }
        }
        steadyInRound = Set.of();
    }

    /**
     * Worth writing: new, or another incarnation's identity, or CPU moved by half a point, or memory or disk by 2 %
     * (at least 1 MiB). Small jitter of an idle process is not rewritten every round.
     */
    static boolean changed(InstanceUsage before, InstanceUsage now) {
        if (before == null || before.index() != now.index() || !before.processGuid().equals(now.processGuid())
                || !before.cellId().equals(now.cellId()) || before.memoryLimitBytes() != now.memoryLimitBytes()
                || !before.startedAt().equals(now.startedAt())) {
            return true;
        }
        return Math.abs(before.cpuPercent() - now.cpuPercent()) >= 0.5
                || moved(before.memoryBytes(), now.memoryBytes()) || moved(before.diskBytes(), now.diskBytes());
    }

    private static boolean moved(long before, long now) {
        return Math.abs(now - before) >= Math.max(MIB, before / 50);
    }
}
