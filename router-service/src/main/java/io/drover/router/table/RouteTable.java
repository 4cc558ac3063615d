package io.drover.router.table;

import java.util.Map;

/** The router's table as requests see it: hostname (lower case) to its route. Immutable; replaced on every change. */
public record RouteTable(Map<String, HostRoute> routes) {

    public static final RouteTable EMPTY = new RouteTable(Map.of());

    public RouteTable {
        routes = Map.copyOf(routes);
    }

    /** The route of a hostname (lower case, no port), or null. */
    public HostRoute route(String hostname) {
        return routes.get(hostname);
    }

    /** How many instances all routes have together. */
    public int backendCount() {
        return routes.values().stream().mapToInt(r -> r.backends().size()).sum();
    }
}
