package io.drover.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/** A thin, thread-safe client of the receptor's REST API with HTTP Basic credentials. */
final class ReceptorClient {

    static final int CREATE_ATTEMPTS = 5;

    private final HttpClient http;
    private final String baseUrl;
    private final String authorization;
    private final AtomicLong resent = new AtomicLong();

    ReceptorClient(String baseUrl, String username, String password, int threads) {
        this.http = BenchThreads.client(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .version(HttpClient.Version.HTTP_1_1), threads);
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A create (POST of a desired LRP or a task) as a well-behaved client sends it: a 503 (storage unavailable, with
     * {@code Retry-After}) is sent again after the time it names, as the API asks, up to {@link #CREATE_ATTEMPTS} times
     * in all; the answer that ended it is returned. {@link #resentAfter503()} counts the sends again.
     */
    HttpResponse<String> create(String path, String body) {
        HttpResponse<String> answer = send("POST", path, body);
        for (int attempt = 1; answer.statusCode() == 503 && attempt < CREATE_ATTEMPTS; attempt++) {
            long seconds = answer.headers().firstValueAsLong("Retry-After").orElse(1);
            try {
                Thread.sleep(1_000 * Math.min(Math.max(seconds, 1), 5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            resent.incrementAndGet();
            answer = send("POST", path, body);
        }
        return answer;
    }

    /** Creates sent again after a 503 since this client was made. */
    long resentAfter503() {
        return resent.get();
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
