package io.drover.model.lrp;

import java.util.List;

/** Health checks polled by the rep: an instance is healthy when every check passes. */
public record CheckDefinition(List<Check> checks) {

    public CheckDefinition {
        checks = checks == null ? List.of() : List.copyOf(checks);
    }

    /** Exactly one of the two kinds is set. */
    public record Check(TcpCheck tcpCheck, HttpCheck httpCheck) {
    }

    /** Healthy when a TCP connection to the container port succeeds. */
    public record TcpCheck(int port, Integer connectTimeoutMs) {
    }

    /** Healthy when GET {@code path} on the container port answers 2xx. */
    public record HttpCheck(int port, String path, Integer requestTimeoutMs) {
    }
}
