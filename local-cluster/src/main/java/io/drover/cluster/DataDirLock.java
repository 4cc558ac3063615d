package io.drover.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One local cluster per data directory: a second one would start a second PostgreSQL and Kafka on the same files. The
 * operating system's file lock is taken atomically and dies with the process, so a crashed cluster leaves no stale lock.
 */
final class DataDirLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dataDir} (created if missing, its owner's only), or fails saying which process holds
     * it.
     */
    static DataDirLock acquire(Path dataDir) {
        Path file = dataDir.resolve(".lock");
        try {
            ClusterFiles.dataDirectory(dataDir);
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                String holder = Files.readString(file).strip();
                channel.close();
                throw new LocalClusterStartException("another local cluster uses " + dataDir
                        + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                        + "; stop it, or give this one its own --data-dir");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(String.valueOf(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)),
                    0);
            return new DataDirLock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + file, e);
        }
    }

    /** Null when another process holds the lock, or this JVM does (the OS would grant it again: check both). */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldHere) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
