package io.drover.model.lrp;

import java.util.List;
import java.util.Objects;

/** Where a running instance can be reached: the cell's address and the host port of each container port. */
public record NetInfo(String address, List<PortMapping> ports) {

    public NetInfo {
        Objects.requireNonNull(address, "address");
        ports = List.copyOf(ports);
    }

    /** One container port and the host port it is published on. */
    public record PortMapping(int containerPort, int hostPort) {
    }
}
