package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsage;
import io.drover.model.usage.UsageRound;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Decides what a sampling round writes: only figures that moved enough to matter since they were last written, and
 * the instances that are gone; every row (and a sweep) on the first round and then every {@code fullInterval}. Holds
 * what was last written, so a round that failed to write is simply folded into the next. Not thread-safe: one reporter
 * thread uses it.
 */
final class UsageRounds {

    private static final long MIB = 1024L * 1024L;

    private final Supplier<Collection<String>> cellIds;

    private final Duration fullInterval;

    private final Map<String, InstanceUsage> written = new HashMap<>();

    private Instant lastFull;

    /** @param cellIds the cells whose rows the rounds write (asked at each round) */
    UsageRounds(Supplier<Collection<String>> cellIds, Duration fullInterval) {
        this.cellIds = cellIds;
        this.fullInterval = fullInterval;
    }

    UsageRound next(List<InstanceUsage> current, Instant now) {
        boolean full = lastFull == null || !now.isBefore(lastFull.plus(fullInterval));
        List<InstanceUsage> upserts = full ? current
                : current.stream().filter(u -> changed(written.get(u.instanceGuid()), u)).toList();
        Set<String> removed = new HashSet<>(written.keySet());
        current.forEach(u -> removed.remove(u.instanceGuid()));
        return UsageRound.of(List.copyOf(cellIds.get()), upserts, removed, full);
    }

    /** The round reached the database: it is now what the table holds for these cells. */
    void written(UsageRound round, Instant now) {
        if (round.full()) {
            written.clear();
            lastFull = now;
        }
        round.removed().forEach(written::remove);
        round.upserts().forEach(u -> written.put(u.instanceGuid(), u));
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
