package io.drover.receptor.web;

import org.springframework.http.HttpStatus;

/** A request the receptor answers with an error of the API's shape; thrown by controllers, rendered by the advice. */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String name;

    public ApiException(HttpStatus status, String name, String message) {
        super(message);
        this.status = status;
        this.name = name;
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
