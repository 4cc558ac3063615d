package io.drover.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** A thin, thread-safe client of the receptor's REST API with HTTP Basic credentials. */
final class ReceptorClient {

    private final HttpClient http;
    private final String baseUrl;
    private final String authorization;

    ReceptorClient(String baseUrl, String username, String password, int threads) {
        this.http = BenchThreads.client(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1), threads);
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> send(String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", authorization);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static String desiredLrp(String processGuid, int instances, int memoryMb) {
        return """
                {"process_guid": "%s", "domain": "bench", "rootfs": "preloaded:host", "instances": %d,
                 "memory_mb": %d, "disk_mb": 64, "ports": [8080],
                 "action": {"run": {"path": "sleep", "args": ["100000"]}}}""".formatted(processGuid, instances, memoryMb);
    }
}
