package io.drover.rep.executor.process;

import io.drover.model.lrp.Action;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code download} action: fetches {@code from} (http, https, or a file on the cell) and unpacks it into
 * {@code to} in the instance's directory ({@link Archives}). With a {@code cache_key} the fetched artifact is kept in
 * the cell's cache ({@code <work-dir>/.download-cache/}, one file per key) and later downloads with that key are served
 * from there without fetching: the key names the content, so a new version needs a new key. The cache is not evicted.
 */
final class Downloads {

    static final String CACHE_DIR = ".download-cache";

    /** The longest one download may take. */
    static final Duration TIMEOUT = Duration.ofMinutes(10);

    /** Downloads block on I/O: they get threads of their own, shared by every executor of the JVM. */
    static final ExecutorService THREADS = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "drover-download");
        t.setDaemon(true);
        return t;
    });

    private final Path cacheDir;
    private final HttpClient http;
    private final Duration timeout;
    private final Map<String, Object> fetching = new ConcurrentHashMap<>();

    Downloads(Path workDir) {
        this(workDir, TIMEOUT);
    }

    Downloads(Path workDir, Duration timeout) {
        this.cacheDir = workDir.resolve(CACHE_DIR);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
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
        Archives.unpackOrCopy(cached(download), to, name);
    }

    /** The cached artifact of the download's key, fetched once per key (concurrent downloads of one key wait). */
    private Path cached(Action.Download download) throws IOException, InterruptedException {
        Files.createDirectories(cacheDir);
        Path artifact = cacheDir.resolve(sha256(download.cacheKey()));
        synchronized (fetching.computeIfAbsent(download.cacheKey(), k -> new Object())) {
            if (!Files.exists(artifact)) {
                Path partial = Files.createTempFile(cacheDir, "fetching-", ".tmp");
                try {
                    fetchTo(download.from(), partial);
                    Files.move(partial, artifact, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(partial);
                }
            }
        }
        return artifact;
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

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
