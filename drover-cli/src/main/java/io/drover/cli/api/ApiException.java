package io.drover.cli.api;

/** The receptor answered with an error ({@code name}, {@code message}), or could not be reached: exit code 1. */
public final class ApiException extends RuntimeException {

    private final String name;
    private final int status;

    public ApiException(String name, String message, int status) {
        super(message);
        this.name = name;
        this.status = status;
    }

    public String name() {
        return name;
    }

    /** The HTTP status, or 0 when there was no answer. */
    public int status() {
        return status;
    }
}
