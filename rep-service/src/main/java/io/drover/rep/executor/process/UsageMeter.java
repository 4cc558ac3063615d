package io.drover.rep.executor.process;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;

/**
 * One container's running measurements: cumulative CPU time turned into a percentage of one core over the time since
 * the previous measurement, the last /proc sample of its tree (sampling mode), and the size of its directory, walked
 * at most every {@link #DISK_INTERVAL} because a large app directory is the one expensive thing to measure.
 */
final class UsageMeter {

    static final Duration DISK_INTERVAL = Duration.ofSeconds(30);

    private volatile long treeMemoryBytes;

    private volatile long treeCpuNanos;

    private long lastCpuNanos = -1;

    private Instant lastAt;

    private long diskBytes;

    private Instant diskAt;

    /** What the 1 s /proc sample found (sampling mode): the tree's RSS and CPU time. */
    void treeSampled(long memoryBytes, long cpuNanos) {
        treeMemoryBytes = memoryBytes;
        treeCpuNanos = cpuNanos;
    }

    long treeMemoryBytes() {
        return treeMemoryBytes;
    }

    long treeCpuNanos() {
        return treeCpuNanos;
    }

    /**
     * Percent of one core used since the previous call, or since {@code startedAt} on the first; never negative (a
     * tree's CPU time can drop when a member that has not been waited for exits).
     */
    synchronized double cpuPercent(long cpuNanos, Instant now, Instant startedAt) {
        Instant since = lastAt == null ? startedAt : lastAt;
        long used = lastCpuNanos < 0 ? cpuNanos : cpuNanos - lastCpuNanos;
        lastCpuNanos = cpuNanos;
        lastAt = now;
        long wallNanos = Duration.between(since, now).toNanos();
        if (wallNanos <= 0 || used <= 0) {
            return 0;
        }
        return Math.round(used * 1000.0 / wallNanos) / 10.0;
    }

    /** The directory's size, walked again when the last walk is older than {@link #DISK_INTERVAL}. */
    synchronized long diskBytes(Path dir, Instant now) {
        if (diskAt == null || !now.isBefore(diskAt.plus(DISK_INTERVAL))) {
            diskBytes = sizeOf(dir);
            diskAt = now;
        }
        return diskBytes;
    }

    static long sizeOf(Path dir) {
        long[] total = { 0 };
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    total[0] += attrs.size();
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            return total[0];
        }
        return total[0];
    }
}
