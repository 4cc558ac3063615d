package io.drover.rep.executor.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cell's download cache: one artifact file per cache key in one directory, at most {@code maxBytes} in all, the
 * least recently used evicted first (LRU by bytes; a file's modification time records its last use, so the order
 * survives a rep restart). An artifact is leased while it is unpacked: a leased one is never evicted, and one larger
 * than the whole cache is used once and then evicted. A key has a lock only while a download of it is in flight, so
 * the locks are as many as the downloads at once. Every executor of a JVM that uses one directory shares its cache.
 */
final class DownloadCache {

    private static final Logger log = LoggerFactory.getLogger(DownloadCache.class);
    private static final Map<Path, DownloadCache> BY_DIRECTORY = new ConcurrentHashMap<>();

    private final Path dir;
    private final long maxBytes;
    /** Artifact file name to its size, least recently used first. Guarded by this. */
    private final LinkedHashMap<String, Long> sizes = new LinkedHashMap<>(16, 0.75f, true);
    /** The keys leased now, each with its users and the lock its fetch holds. Guarded by this. */
    private final Map<String, Holder> held = new HashMap<>();
    private long total;

    private DownloadCache(Path dir, long maxBytes) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        scan();
    }

    /** The cache of {@code dir} in this JVM (the bound of the first caller wins). */
    static DownloadCache at(Path dir, long maxBytes) {
        return BY_DIRECTORY.computeIfAbsent(dir.toAbsolutePath().normalize(), d -> new DownloadCache(d, maxBytes));
    }

    /** Fetches an artifact into the file it is given; throws with a readable reason. */
    @FunctionalInterface
    interface Fetch {
        void into(Path partial) throws IOException, InterruptedException;
    }

    /** An artifact in use: it stays until closed. */
    interface Lease extends AutoCloseable {

        Path artifact();

        @Override
        void close();
    }

    /** The artifact of {@code key}, fetched once (a second user of the key waits for the first one's fetch). */
    Lease lease(String key, Fetch fetch) throws IOException, InterruptedException {
        String name = name(key);
        Holder holder = hold(name);
        try {
            Path artifact = dir.resolve(name);
            holder.fetching.lockInterruptibly();
            try {
                if (Files.exists(artifact)) {
                    used(name, artifact);
                } else {
                    fetchTo(artifact, fetch);
                    added(name, Files.size(artifact));
                }
            } finally {
                holder.fetching.unlock();
            }
            return new Lease() {
                @Override
                public Path artifact() {
                    return artifact;
                }

                @Override
                public void close() {
                    release(name, holder);
                }
            };
        } catch (IOException | InterruptedException | RuntimeException e) {
            release(name, holder);
            throw e;
        }
    }

    synchronized int keysHeld() {
        return held.size();
    }

    private void fetchTo(Path artifact, Fetch fetch) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path partial = Files.createTempFile(dir, "fetching-", ".tmp");
        try {
            fetch.into(partial);
            Files.move(partial, artifact, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    private synchronized Holder hold(String name) {
        Holder holder = held.computeIfAbsent(name, n -> new Holder());
        holder.users++;
        return holder;
    }

    private void release(String name, Holder holder) {
        synchronized (this) {
            if (--holder.users == 0) {
                held.remove(name);
            }
        }
        evict();
    }

    private synchronized void added(String name, long bytes) {
        Long before = sizes.put(name, bytes);
        total += bytes - (before == null ? 0 : before);
    }

    private void used(String name, Path artifact) throws IOException {
        synchronized (this) {
            if (sizes.get(name) == null) {
                added(name, Files.size(artifact)); // written by another JVM on this directory
            }
        }
        Files.setLastModifiedTime(artifact, FileTime.fromMillis(System.currentTimeMillis()));
    }

    /** Deletes the least recently used artifacts nobody holds until the cache fits its bytes. */
    private synchronized void evict() {
        Iterator<Map.Entry<String, Long>> oldestFirst = sizes.entrySet().iterator();
        while (total > maxBytes && oldestFirst.hasNext()) {
            Map.Entry<String, Long> entry = oldestFirst.next();
            if (held.containsKey(entry.getKey())) {
                continue;
            }
            try {
                Files.deleteIfExists(dir.resolve(entry.getKey()));
            } catch (IOException e) {
                log.warn("download-cache-evict-failed file={} error={}", entry.getKey(), e.toString());
                continue;
            }
            total -= entry.getValue();
            oldestFirst.remove();
        }
    }

    /** What a previous run left, least recently used first. */
    private void scan() {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> artifacts = files.filter(f -> !f.getFileName().toString().endsWith(".tmp"))
                    .sorted(Comparator.comparing(DownloadCache::lastModified)).toList();
            for (Path artifact : artifacts) {
                added(artifact.getFileName().toString(), Files.size(artifact));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        evict();
    }

    private static FileTime lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static String name(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A key in use: how many hold it, and the lock its fetch takes. */
    private static final class Holder {
        final ReentrantLock fetching = new ReentrantLock();
        int users;
    }
}
