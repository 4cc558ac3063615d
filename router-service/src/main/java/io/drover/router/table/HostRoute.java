package io.drover.router.table;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostname and the instances that serve it now: the routable instances of every LRP whose routes name it (two LRPs
 * may share a hostname, as in Diego: a blue-green switch), at the host port of the route's container port. Immutable
 * but for the round-robin position.
 */
public final class HostRoute {

    private final String hostname;
    private final List<Backend> backends;
    private final AtomicInteger next = new AtomicInteger();

    public HostRoute(String hostname, List<Backend> backends) {
        this.hostname = hostname;
        this.backends = List.copyOf(backends);
    }

    public String hostname() {
        return hostname;
    }

    public List<Backend> backends() {
        return backends;
    }

    /** The next position for round-robin (wraps, never negative). */
    public int nextPosition() {
        return next.getAndIncrement() & Integer.MAX_VALUE;
    }

    @Override
    public String toString() {
        return hostname + "=" + backends;
    }
}
