package io.drover.rep.executor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last lines of a cell's containers once they are gone (a task that ended, an instance that crashed, stopped or
 * was replaced), so their logs outlive their processes: whatever the executor, the log of a container is copied here
 * (its last {@link #LINES} lines) when the rep forgets it, and the log server serves it by its guid like a live one.
 * Kept in memory, per cell at most {@code bytesPerCell} (the oldest kept go first; one container at most an eighth of
 * it) and each for {@code keepFor}; a rep restart forgets them.
 */
public final class KeptLogs {

    /** The lines kept of one container, at most. */
    static final int LINES = 1_000;

    private final long bytesPerCell;
    private final Duration keepFor;
    private final Clock clock;
    private final Map<String, Cell> cells = new ConcurrentHashMap<>();

    public KeptLogs(long bytesPerCell, Duration keepFor, Clock clock) {
        this.bytesPerCell = bytesPerCell;
        this.keepFor = keepFor;
        this.clock = clock;
    }

    /** {@code executor} of {@code cellId}, keeping the last lines of each container it forgets, and serving them. */
    public Executor around(Executor executor, String cellId) {
        return new LogKeepingExecutor(executor, cellId, this);
    }

    void keep(String cellId, String guid, InstanceLog log) {
        List<LogLine> lines = new ArrayList<>(log.tail(LINES, EnumSet.allOf(LogSource.class)));
        long bytes = 0;
        for (LogLine line : lines) {
            bytes += size(line);
        }
        while (bytes > bytesPerCell / 8 && !lines.isEmpty()) {
            bytes -= size(lines.remove(0));
        }
        cells.computeIfAbsent(cellId, c -> new Cell()).keep(guid, new Kept(List.copyOf(lines), bytes,
                clock.instant()), bytesPerCell, clock.instant().minus(keepFor));
    }

    Optional<InstanceLog> find(String cellId, String guid) {
        Cell cell = cells.get(cellId);
        return cell == null ? Optional.empty() : cell.find(guid, clock.instant().minus(keepFor));
    }

    /** Bytes kept for {@code cellId} now. */
    long bytes(String cellId) {
        Cell cell = cells.get(cellId);
        return cell == null ? 0 : cell.bytes();
    }

    private static long size(LogLine line) {
        return 48L + 2L * line.text().length();
    }

    /** One cell's kept logs, oldest first. */
    private static final class Cell {

        private final LinkedHashMap<String, Kept> kept = new LinkedHashMap<>();
        private long bytes;

        synchronized void keep(String guid, Kept log, long maxBytes, Instant expiredBefore) {
            Kept before = kept.remove(guid);
            bytes -= before == null ? 0 : before.bytes();
            kept.put(guid, log);
            bytes += log.bytes();
            prune(maxBytes, expiredBefore);
        }

        synchronized Optional<InstanceLog> find(String guid, Instant expiredBefore) {
            prune(Long.MAX_VALUE, expiredBefore);
            return Optional.ofNullable(kept.get(guid));
        }

        synchronized long bytes() {
            return bytes;
        }

        private void prune(long maxBytes, Instant expiredBefore) {
            Iterator<Kept> oldestFirst = kept.values().iterator();
            while (oldestFirst.hasNext()) {
                Kept log = oldestFirst.next();
                if (bytes <= maxBytes && !log.at().isBefore(expiredBefore)) {
                    return;
                }
                bytes -= log.bytes();
                oldestFirst.remove();
            }
        }
    }

    /** The last lines of a container that is gone: its tail is all there is, and following it ends at once. */
    private record Kept(List<LogLine> lines, long bytes, Instant at) implements InstanceLog {

        @Override
        public List<LogLine> tail(int count, Set<LogSource> sources) {
            List<LogLine> matching = lines.stream().filter(l -> sources.contains(l.source())).toList();
            return matching.subList(Math.max(0, matching.size() - Math.max(0, count)), matching.size());
        }

        @Override
        public LogFollower follow(int count, Set<LogSource> sources, int buffer) {
            List<LogLine> tail = tail(count, sources);
            LogFollower follower = new LogFollower(tail.size() + 1);
            tail.forEach(follower::offer);
            follower.end();
            return follower;
        }
    }
}
