package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.drover.model.lrp.Action;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Downloads over HTTP into an instance's directory, once per cache key. */
class DownloadsTest {

    @TempDir
    Path workDir;

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/config.json", exchange -> {
            requests.incrementAndGet();
            byte[] body = "{\"answer\": 42}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void aFileIsFetchedOncePerCacheKeyAndWrittenWhereToSays() throws Exception {
        Downloads downloads = new Downloads(workDir);
        Path app = Files.createDirectories(workDir.resolve("cell/instance/app"));

        downloads.fetch(new Action.Download(url("/config.json"), "conf/app.json", "config-1"), app);
        downloads.fetch(new Action.Download(url("/config.json"), "again.json", "config-1"), app);

        assertThat(app.resolve("conf/app.json")).hasContent("{\"answer\": 42}");
        assertThat(app.resolve("again.json")).hasContent("{\"answer\": 42}");
        assertThat(requests).hasValue(1);
    }

    @Test
    void theCacheKeepsTheArtifactsUsedLastWithinItsBytesAndHoldsALockOnlyPerDownloadInFlight() throws Exception {
        Downloads downloads = new Downloads(workDir.resolve("bounded"), Downloads.TIMEOUT, 30); // two 14-byte files
        Path app = Files.createDirectories(workDir.resolve("cell/instance/app"));

        fetch(downloads, "k1", app);
        fetch(downloads, "k2", app);
        fetch(downloads, "k1", app);
        assertThat(requests).as("both cached").hasValue(2);
        fetch(downloads, "k3", app);
        assertThat(requests).hasValue(3);

        fetch(downloads, "k1", app);
        assertThat(requests).as("k1 was used more lately than k2: kept").hasValue(3);
        fetch(downloads, "k2", app);
        assertThat(requests).as("k2 was evicted for k3").hasValue(4);
        try (var cached = Files.list(workDir.resolve("bounded").resolve(Downloads.CACHE_DIR))) {
            assertThat(cached.mapToLong(f -> f.toFile().length()).sum()).isLessThanOrEqualTo(30);
        }
        assertThat(downloads.keysHeld()).as("no lock left behind by a finished download").isZero();
    }

    private void fetch(Downloads downloads, String key, Path app) throws Exception {
        downloads.fetch(new Action.Download(url("/config.json"), key + ".json", key), app);
    }

    @Test
    void aFailedFetchSaysWhyAndWritesNothing() throws Exception {
        Downloads downloads = new Downloads(workDir);
        Path app = Files.createDirectories(workDir.resolve("cell/instance/app"));

        assertThatThrownBy(() -> downloads.fetch(new Action.Download(url("/missing"), "x", "k"), app))
                .isInstanceOf(IOException.class).hasMessage("HTTP 404");
        assertThat(app.resolve("x")).doesNotExist();
        assertThat(Files.list(workDir.resolve(Downloads.CACHE_DIR))).as("no partial artifact cached").isEmpty();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }
}
