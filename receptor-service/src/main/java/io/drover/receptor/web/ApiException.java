package io.drover.receptor.web;

import java.util.Map;
import org.springframework.http.HttpStatus;

/** A request the receptor answers with an error of the API's shape; thrown by controllers, rendered by the advice. */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String name;
    private final Map<String, String> headers;

    public ApiException(HttpStatus status, String name, String message) {
        this(status, name, message, Map.of());
    }

    /** With response headers, e.g. a 429's {@code Retry-After}. */
    public ApiException(HttpStatus status, String name, String message, Map<String, String> headers) {
        super(message);
        this.status = status;
        this.name = name;
        this.headers = Map.copyOf(headers);
    }

    public Map<String, String> headers() {
        return headers;
    }

    public static ApiException badRequest(String name, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, name, message);
    }

    public HttpStatus status() {
        return status;
    }

    public ApiError error() {
        return new ApiError(name, getMessage());
    }
}
