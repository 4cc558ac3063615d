package io.drover.cli.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The receptor's API over the JDK's HTTP client, with HTTP Basic. An error answer becomes an {@link ApiException}
 * with the API's error name and message; an unreachable receptor becomes one named {@code ReceptorUnreachable}.
 */
public final class Receptor {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Connection connection;
    private final String authorization;

    public Receptor(Connection connection) {
        this.connection = connection;
        this.authorization = "Basic " + Base64.getEncoder().encodeToString(
                (connection.user() + ":" + connection.password()).getBytes(StandardCharsets.UTF_8));
    }

    public JsonNode get(String path) {
        return call("GET", path, null);
    }

    /** The array at {@code path} as a list. */
    public List<JsonNode> list(String path) {
        List<JsonNode> items = new ArrayList<>();
        get(path).forEach(items::add);
        return items;
    }

    /** Sends a request; the parsed body, or null when there is none (204). */
    public JsonNode call(String method, String path, String jsonBody) {
        HttpRequest.Builder request = request(path).timeout(Duration.ofSeconds(30));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(jsonBody));
        HttpResponse<String> response = send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw error(response.statusCode(), response.body());
        }
        return response.body() == null || response.body().isBlank() ? null : JSON.readTree(response.body());
    }

    /** A streaming answer (logs, events): the body as it comes. The caller closes it. */
    public InputStream stream(String path, String accept) {
        HttpResponse<InputStream> response = send(request(path).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() >= 300) {
            try (InputStream body = response.body()) {
                throw error(response.statusCode(), new String(body.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw error(response.statusCode(), "");
            }
        }
        return response.body();
    }

    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(connection.url() + path)).header("Authorization", authorization);
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (ConnectException e) {
            throw unreachable("connection refused");
        } catch (IOException e) {
            throw unreachable(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable("interrupted");
        }
    }

    private ApiException unreachable(String why) {
        return new ApiException("ReceptorUnreachable", "cannot reach the receptor at " + connection.url() + " ("
                + why + "; configured by " + connection.source() + ")", 0);
    }

    static ApiException error(int status, String body) {
        try {
            JsonNode error = JSON.readTree(body);
            if (error.hasNonNull("name") && error.hasNonNull("message")) {
                return new ApiException(error.get("name").asString(), error.get("message").asString(), status);
            }
        } catch (RuntimeException e) {
            // not the API's error shape: say what came
        }
        String text = body == null ? "" : body.strip();
        return new ApiException("HTTP" + status, text.length() > 200 ? text.substring(0, 200) + "..." : text, status);
    }
}
