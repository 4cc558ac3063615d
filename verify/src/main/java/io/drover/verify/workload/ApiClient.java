package io.drover.verify.workload;

import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/**
 * The receptor's public REST API, every call recorded as it was made: invoke and complete time on the run's clock,
 * status (0 when no answer came: the outcome is unknown), ETag and body.
 */
public final class ApiClient {

    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String baseUrl;
    private final String authorization;
    private final HistoryFile history;
    private final RunClock clock;

    public ApiClient(String baseUrl, String username, String password, HistoryFile history, RunClock clock) {
        this.baseUrl = baseUrl;
        this.authorization = basic(username, password);
        this.history = history;
        this.clock = clock;
    }

    public static String basic(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String authorization() {
        return authorization;
    }

    /** A call of {@code kind} on {@code key}, recorded. */
    public Entry.Call call(String process, String kind, String key, String method, String path, String ifMatch,
            String body) {
        return call(process, kind, key, method, path, ifMatch, body, -1);
    }

    public Entry.Call call(String process, String kind, String key, String method, String path, String ifMatch,
            String body, int round) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
                .header("Authorization", authorization);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return send(process, kind, key, method, path, ifMatch, body, request.build(), round);
    }

    /** A request built by the caller (hostile headers, raw bytes), recorded with {@code shown} as its body. */
    public Entry.Call raw(String process, String kind, String key, String method, String path,
            Map<String, String> headers, byte[] body, String shown) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT);
        headers.forEach(request::header);
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
        return send(process, kind, key, method, path, headers.get("If-Match"), shown, request.build(), -1);
    }

    private Entry.Call send(String process, String kind, String key, String method, String path, String ifMatch,
            String body, HttpRequest request, int round) {
        long invoke = clock.now();
        int status = 0;
        String etag = null;
        String answer = null;
        String error = null;
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            status = response.statusCode();
            etag = response.headers().firstValue("ETag").orElse(null);
            answer = response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error = "interrupted";
        } catch (Exception e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        Entry.Call call = new Entry.Call(process, kind, key, method, path, ifMatch, body, invoke, clock.now(), status,
                etag, answer, error, round);
        history.add(call);
        return call;
    }
}
