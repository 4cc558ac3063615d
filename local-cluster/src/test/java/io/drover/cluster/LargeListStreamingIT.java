package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * {@code GET /v1/actual_lrps} over 100,000 instances from a receptor in its own JVM with a heap far too small to hold
 * them: the list streams in keyset pages, so the receptor answers all of them and survives (it exits on an
 * OutOfMemoryError). The instances are desired through the API (10 LRPs of 10,000), the legal path; with nothing
 * placing them they stay UNCLAIMED. The relay is off: the lifecycle events of 100,000 creations would only cost time.
 * The receptor's JVM compiles with C1 alone, as the test JVMs do: its start costs a third less CPU.
 */
class LargeListStreamingIT {

    static final int LRPS = 10;
    static final int INSTANCES = 10_000;
    /** Spring, Tomcat and the Kafka clients fit; 100,000 rows loaded at once (or their JSON) do not. */
    static final String HEAP = "-Xmx" + System.getProperty("drover.streaming-it.heap", "100m");

    @TempDir
    Path dataDir;

    @Test
    void aHundredThousandInstancesStreamFromAReceptorWhoseHeapCannotHoldThem() throws Exception {
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 0, 0, "u", "p",
                Map.of("drover.outbox.relay-enabled", "false", "logging.level.root", "WARN"));
        ProcessCluster.Launch receptorOnly = new ProcessCluster.Launch(EnumSet.of(ServiceKind.RECEPTOR),
                Map.of(ServiceKind.RECEPTOR, List.of(HEAP, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-XX:+ExitOnOutOfMemoryError")));
        long started = System.nanoTime();
        try (ProcessCluster cluster = ProcessCluster.start(settings, receptorOnly)) {
            long clusterUp = System.nanoTime();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
            for (int i = 0; i < LRPS; i++) {
                HttpResponse<String> created = http.send(request(cluster, "/v1/desired_lrps").POST(
                        HttpRequest.BodyPublishers.ofString("""
                                {"process_guid": "big-%d", "domain": "big", "rootfs": "preloaded:host",
                                 "instances": %d, "action": {"run": {"path": "sleep"}}}""".formatted(i, INSTANCES)))
                        .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofString());
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            }

            long desired = System.nanoTime();
            long pid = cluster.services().get(0).process().pid();
            double cpu = cpuSeconds(pid);
            HttpResponse<InputStream> list = http.send(request(cluster, "/v1/actual_lrps").GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(list.statusCode()).isEqualTo(200);
            String etag = list.headers().firstValue("ETag").orElseThrow();
            assertThat(etag).startsWith("W/");
            assertThat(countInstances(list.body())).isEqualTo(LRPS * INSTANCES);
            assertThat(cluster.services().get(0).process().isAlive()).as("the receptor survived").isTrue();

            cpu = cpuSeconds(pid);
            HttpResponse<byte[]> again = http.send(request(cluster, "/v1/actual_lrps").GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            double listCpu = cpuSeconds(pid) - cpu;
            assertThat(again.headers().firstValue("ETag")).contains(etag);

            cpu = cpuSeconds(pid);
            HttpResponse<byte[]> unchanged = http.send(request(cluster, "/v1/actual_lrps").header("If-None-Match",
                    etag).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(unchanged.statusCode()).isEqualTo(304);
            double notModifiedCpu = cpuSeconds(pid) - cpu;
            cpu = cpuSeconds(pid);
            HttpResponse<byte[]> gzipped = http.send(request(cluster, "/v1/actual_lrps").header("Accept-Encoding",
                    "gzip").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(gzipped.headers().firstValue("Content-Encoding")).contains("gzip");
            assertThat(countInstances(new GZIPInputStream(new ByteArrayInputStream(
                    gzipped.body())))).isEqualTo(LRPS * INSTANCES);
            System.out.printf("large-list-streaming rows=%d heap=%s receptor_cpu_ms list=%.0f not_modified=%.0f "
                    + "gzipped=%.0f bytes=%d gzipped_bytes=%d seconds cluster=%d desire=%d reads=%d%n",
                    LRPS * INSTANCES, HEAP, 1000 * listCpu, 1000 * notModifiedCpu, 1000 * (cpuSeconds(pid) - cpu),
                    again.body().length, gzipped.body().length, (clusterUp - started) / 1_000_000_000,
                    (desired - clusterUp) / 1_000_000_000, (System.nanoTime() - desired) / 1_000_000_000);
        }
    }

    /** Reads the array token by token (the test holds no more of it than the receptor does) and counts its objects. */
    private static int countInstances(InputStream body) throws Exception {
        int instances = 0;
        try (JsonParser parser = JsonFactory.builder().build().createParser(ObjectReadContext.empty(), body)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_ARRAY);
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() != JsonToken.END_OBJECT) {
                    if (parser.currentToken() == JsonToken.PROPERTY_NAME && parser.currentName().equals("state")) {
                        assertThat(parser.nextStringValue()).isEqualTo("UNCLAIMED");
                    } else if (parser.currentToken().isStructStart()) {
                        parser.skipChildren();
                    }
                }
                instances++;
            }
            assertThat(parser.currentToken()).isEqualTo(JsonToken.END_ARRAY);
        }
        return instances;
    }

    /** The CPU a process has used, from /proc (user + system clock ticks of 10 ms). */
    private static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    private static HttpRequest.Builder request(ProcessCluster cluster, String path) {
        return HttpRequest.newBuilder(URI.create(cluster.receptorUrl() + path)).timeout(Duration.ofMinutes(5))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("u:p".getBytes(
                        StandardCharsets.UTF_8)));
    }
}
