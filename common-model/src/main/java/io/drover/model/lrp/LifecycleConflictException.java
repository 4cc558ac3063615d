package io.drover.model.lrp;

/** Optimistic-lock conflicts persisted through every retry; the caller may try again later. */
public class LifecycleConflictException extends RuntimeException {

    public LifecycleConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
