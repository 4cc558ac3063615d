package io.drover.receptor.logs;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;

/**
 * Asks a cell's log server for an instance's log, presenting the shared secret. Returns once the cell has answered
 * with its status and headers; the body is then read as it comes. A cell that cannot be reached, does not answer in
 * time, or refuses the secret is a 502 {@code CellUnreachable}; an instance the cell no longer has is a 409.
 */
final class CellLogClient {

    static final String CELL_UNREACHABLE = "CellUnreachable";
    static final String INSTANCE_NOT_ON_CELL = "InstanceNotOnCell";

    private final HttpClient http;
    private final LogsProperties properties;
    private final String secret;

    CellLogClient(LogsProperties properties, String secret) {
        this.http = HttpClient.newBuilder().connectTimeout(properties.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.properties = properties;
        this.secret = secret;
    }

    InputStream open(String cellId, String endpoint, String instanceGuid, LogQuery query) {
        if (secret == null || secret.isBlank()) {
            throw unreachable("this receptor has no drover.logs.secret (DROVER_LOGS_SECRET), so it cannot read logs "
                    + "from cells");
        }
        URI uri;
        try {
            uri = URI.create(endpoint + "/v1/cells/" + encode(cellId) + "/instances/" + encode(instanceGuid)
                    + "/logs?" + query.toQueryString());
        } catch (IllegalArgumentException e) {
            throw unreachable("cell " + cellId + " advertises an unusable log endpoint");
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(properties.responseTimeout())
                    .header("Authorization", "Bearer " + secret).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unreachable("cell " + cellId + " did not answer at " + endpoint + ": " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable("interrupted while asking cell " + cellId + " for logs");
        }
        int status = response.statusCode();
        if (status == 200) {
            return response.body();
        }
        close(response.body());
        if (status == 404) {
            throw new ApiException(HttpStatus.CONFLICT, INSTANCE_NOT_ON_CELL,
                    "instance " + instanceGuid + " is no longer on cell " + cellId);
        }
        if (status == 401) {
            throw unreachable("cell " + cellId + " refused this receptor's drover.logs.secret (the secrets differ)");
        }
        throw unreachable("cell " + cellId + " answered " + status + " for the logs of instance " + instanceGuid);
    }

    static ApiException unreachable(String message) {
        return new ApiException(HttpStatus.BAD_GATEWAY, CELL_UNREACHABLE, message);
    }

    static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
