package io.drover.model.task;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Where a task's completion callback stands (SPEC 13): {@code pending} until it is delivered or given up, including
 * while the task runs and between attempts; {@code delivered} once a receiver answered 2xx (the task is then deleted, so
 * only its removal event says so); {@code given_up} once its retries ran out or the receiver refused it.
 */
public enum CallbackStatus {

    PENDING("pending"), DELIVERED("delivered"), GIVEN_UP("given_up");

    private final String label;

    CallbackStatus(String label) {
        this.label = label;
    }

    /** As stored and shown: {@code pending}, {@code delivered}, {@code given_up}. */
    @JsonValue
    public String label() {
        return label;
    }

    /** The status of a stored label; null for none. */
    public static CallbackStatus of(String label) {
        if (label == null) {
            return null;
        }
        for (CallbackStatus status : values()) {
            if (status.label.equals(label)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown callback status " + label);
    }
}
