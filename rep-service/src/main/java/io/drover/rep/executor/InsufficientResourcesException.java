package io.drover.rep.executor;

/** The cell cannot fit the container (memory, disk, container slots or host ports). */
public class InsufficientResourcesException extends RuntimeException {

    public InsufficientResourcesException(String message) {
        super(message);
    }
}
