package io.drover.rep.executor.process;

import io.drover.model.lrp.Action;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code download} action: fetches {@code from} (http, https, or a file on the cell) and unpacks it into
 * {@code to} in the instance's directory ({@link Archives}). With a {@code cache_key} the fetched artifact is kept in
 * the cell's cache ({@code <work-dir>/.download-cache/}, one file per key, {@link DownloadCache}) and later downloads
 * with that key are served from there without fetching: the key names the content, so a new version needs a new key.
 * The cache holds at most {@link #CACHE_BYTES} (1 GiB), evicting the artifacts used longest ago first.
 */
final class Downloads {

    static final String CACHE_DIR = ".download-cache";

    /** The most the download cache holds; the artifacts used longest ago make room. */
    static final long CACHE_BYTES = 1L << 30;

    /** The longest one download may take. */
    static final Duration TIMEOUT = Duration.ofMinutes(10);

    /** Downloads block on I/O: they get threads of their own, shared by every executor of the JVM. */
    static final ExecutorService THREADS = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "drover-download");
        t.setDaemon(true);
        return t;
    });

    private final DownloadCache cache;
    private final HttpClient http;
    private final Duration timeout;

    Downloads(Path workDir) {
        this(workDir, TIMEOUT, CACHE_BYTES);
    }

    Downloads(Path workDir, Duration timeout, long cacheBytes) {
        this.cache = DownloadCache.at(workDir.resolve(CACHE_DIR), cacheBytes);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /** Cache keys with a download in flight (each holds a lock until it is done). */
    int keysHeld() {
        return cache.keysHeld();
    }

    /** Fetches and unpacks into {@code appDir}; throws with a readable reason. */
    void fetch(Action.Download download, Path appDir) throws IOException, InterruptedException {
        Path to = target(appDir, download.to());
        String name = fileName(download.from());
        if (download.cacheKey() == null) {
            Path artifact = Files.createTempFile(appDir.getParent(), "download-", ".tmp");
            try {
                fetchTo(download.from(), artifact);
                Archives.unpackOrCopy(artifact, to, name);
            } finally {
                Files.deleteIfExists(artifact);
            }
            return;
        }
        // fetched once per key (concurrent downloads of one key wait); never evicted while it is unpacked
        try (DownloadCache.Lease cached = cache.lease(download.cacheKey(), partial -> fetchTo(download.from(),
                partial))) {
            Archives.unpackOrCopy(cached.artifact(), to, name);
        }
    }

    private void fetchTo(String from, Path target) throws IOException, InterruptedException {
        URI uri = URI.create(from);
        if ("file".equalsIgnoreCase(uri.getScheme())) {
            Files.copy(Path.of(uri), target, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        HttpResponse<Path> response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofFile(target));
        if (response.statusCode() / 100 != 2) {
            throw new IOException("HTTP " + response.statusCode());
        }
    }

    /** Where {@code to} is in the instance's directory: inside it ({@code .} is the directory itself). */
    static Path target(Path appDir, String to) throws IOException {
        Path base = appDir.toAbsolutePath().normalize();
        Path target = base.resolve(to).normalize();
        if (Path.of(to).isAbsolute() || !target.startsWith(base)) {
            throw new IOException("to " + to + " is not inside the instance's directory");
        }
        return target;
    }

    private static String fileName(String from) {
        String path = URI.create(from).getPath();
        String name = path == null ? "" : Path.of(path).getFileName() == null ? "" : Path.of(path).getFileName()
                .toString();
        return name.isEmpty() ? "download" : name;
    }

}
