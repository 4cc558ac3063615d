package io.drover.cli.api;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The receptor's API with HTTP Basic. An error answer becomes an {@link ApiException} with the API's error name and
 * message; an unreachable receptor becomes one named {@code ReceptorUnreachable}. Over {@link HttpURLConnection}, not
 * the JDK's {@code HttpClient}: the client sets up TLS whether the URL needs it or not, some 250 ms of a command's
 * start.
 */
public final class Receptor {

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int CALL_TIMEOUT_MS = 30_000;

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
        HttpURLConnection http = open(path, CALL_TIMEOUT_MS);
        try {
            http.setRequestMethod(method);
            http.setRequestProperty("Accept", "application/json");
            if (jsonBody != null) {
                http.setDoOutput(true);
                http.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = http.getOutputStream()) {
                    out.write(jsonBody.getBytes(StandardCharsets.UTF_8));
                }
            }
            int status = http.getResponseCode();
            String body = read(status >= 400 ? http.getErrorStream() : http.getInputStream());
            if (status >= 300) {
                throw error(status, body);
            }
            return body.isBlank() ? null : Json.parse(body);
        } catch (IOException e) {
            throw unreachable(e);
        } finally {
            http.disconnect();
        }
    }

    /** A streaming answer (logs, events): the body as it comes. Closing it hangs up. */
    public InputStream stream(String path, String accept) {
        HttpURLConnection http = open(path, 0);
        try {
            http.setRequestProperty("Accept", accept);
            int status = http.getResponseCode();
            if (status >= 300) {
                String body = read(http.getErrorStream());
                http.disconnect();
                throw error(status, body);
            }
            return new FilterInputStream(http.getInputStream()) {
                @Override
                public void close() {
                    http.disconnect(); // closes the socket, also under a reader blocked in read()
                }
            };
        } catch (IOException e) {
            http.disconnect();
            throw unreachable(e);
        }
    }

    public static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpURLConnection open(String path, int readTimeoutMs) {
        try {
            HttpURLConnection http = (HttpURLConnection) URI.create(connection.url() + path).toURL().openConnection();
            http.setConnectTimeout(CONNECT_TIMEOUT_MS);
            http.setReadTimeout(readTimeoutMs);
            http.setUseCaches(false);
            http.setInstanceFollowRedirects(false);
            http.setRequestProperty("Authorization", authorization);
            return http;
        } catch (IOException | IllegalArgumentException e) {
            throw new ApiException("ReceptorUnreachable", "cannot use the receptor URL " + connection.url() + " ("
                    + e.getMessage() + "; configured by " + connection.source() + ")", 0);
        }
    }

    private static String read(InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private ApiException unreachable(IOException e) {
        String why = e instanceof ConnectException ? "connection refused"
                : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new ApiException("ReceptorUnreachable", "cannot reach the receptor at " + connection.url() + " ("
                + why + "; configured by " + connection.source() + ")", 0);
    }

    static ApiException error(int status, String body) {
        try {
            JsonNode error = Json.parse(body);
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
