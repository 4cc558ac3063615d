package io.drover.cluster;

/** The local cluster could not start; whatever had started is stopped again. The message is one line saying why. */
public final class LocalClusterStartException extends RuntimeException {

    LocalClusterStartException(String message) {
        super(message);
    }

    LocalClusterStartException(String part, Throwable cause) {
        super(part + " did not start: " + rootMessage(cause), cause);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse(message).strip();
    }
}
