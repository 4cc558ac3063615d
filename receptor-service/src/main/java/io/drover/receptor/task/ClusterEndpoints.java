package io.drover.receptor.task;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.receptor.task.CallbackTargets.Endpoint;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * The services of this cluster a callback must never reach, as far as a receptor can know them: itself (its port on
 * every address of this machine), PostgreSQL ({@code spring.datasource.url}), Kafka
 * ({@code spring.kafka.bootstrap-servers}) and every cell's log server (from the cells table, read again at most every
 * {@code refresh}). A rep's admin port is bound to loopback, which callbacks may not reach by default either.
 */
final class ClusterEndpoints {

    private static final Logger log = LoggerFactory.getLogger(ClusterEndpoints.class);
    private final Environment environment;
    private final CellPresence cells;
    private final Clock clock;
    private final Duration refresh;
    private volatile List<Endpoint> configured;
    private volatile List<Endpoint> ofCells = List.of();
    private volatile Instant cellsReadAt = Instant.MIN;
    /** {@link #all()} as last put together: rebuilt when either part changes, not for every submission. */
    private volatile Combined combined = new Combined(null, null, CallbackTargets.Services.of(List.of()));

    ClusterEndpoints(Environment environment, CellPresence cells, Clock clock, Duration refresh) {
        this.environment = environment;
        this.cells = cells;
        this.clock = clock;
        this.refresh = refresh;
    }

    CallbackTargets.Services all() {
        List<Endpoint> known = configured();
        List<Endpoint> cellEndpoints = cells();
        Combined last = combined;
        if (last.configured() != known || last.cells() != cellEndpoints) {
            List<Endpoint> all = new ArrayList<>(known);
            all.addAll(cellEndpoints);
            last = new Combined(known, cellEndpoints, CallbackTargets.Services.of(all));
            combined = last;
        }
        return last.all();
    }

    /** The two parts of {@link #all()} (by identity) and what they made together. */
    private record Combined(List<Endpoint> configured, List<Endpoint> cells, CallbackTargets.Services all) {
    }

    private List<Endpoint> configured() {
        List<Endpoint> known = configured;
        if (known == null) {
            Integer port = environment.getProperty("local.server.port", Integer.class,
                    environment.getProperty("server.port", Integer.class, 8080));
            List<Endpoint> endpoints = new ArrayList<>();
            localAddresses().forEach(a -> endpoints.add(new Endpoint(null, a, port)));
            endpoints.add(new Endpoint("localhost", null, port));
            postgres(environment.getProperty("spring.datasource.url", "")).forEach(endpoints::add);
            for (String server : environment.getProperty("spring.kafka.bootstrap-servers", "").split(",")) {
                hostPort(server.trim(), 9092).forEach(endpoints::add);
            }
            known = List.copyOf(endpoints);
            if (environment.getProperty("local.server.port") != null) {
                configured = known; // final once the server listens
            }
        }
        return known;
    }

    private List<Endpoint> cells() {
        Instant now = clock.instant();
        if (!cellsReadAt.plus(refresh).isAfter(now)) {
            List<Endpoint> endpoints = new ArrayList<>();
            for (Cell cell : cells.all()) {
                String logs = cell.registration().logEndpoint();
                if (logs != null) {
                    URI uri = URI.create(logs);
                    endpoints.addAll(hostPort(uri.getHost() + ":" + uri.getPort(), 80));
                }
            }
            ofCells = List.copyOf(endpoints);
            cellsReadAt = now;
        }
        return ofCells;
    }

    /** {@code jdbc:postgresql://host1:5432,host2/db?...}: every host of it. */
    static List<Endpoint> postgres(String url) {
        if (!url.startsWith("jdbc:postgresql://")) {
            return List.of();
        }
        String rest = url.substring("jdbc:postgresql://".length());
        int end = rest.indexOf('/');
        List<Endpoint> endpoints = new ArrayList<>();
        for (String server : (end < 0 ? rest : rest.substring(0, end)).split(",")) {
            endpoints.addAll(hostPort(server.trim(), 5432));
        }
        return endpoints;
    }

    /** {@code host:port} (or {@code [v6]:port}) as endpoints: by name, and by each address the name resolves to. */
    static List<Endpoint> hostPort(String server, int defaultPort) {
        if (server.isEmpty()) {
            return List.of();
        }
        String host = server;
        int port = defaultPort;
        int colon = server.lastIndexOf(':');
        if (colon > 0 && server.indexOf(']') < colon && (server.startsWith("[") || server.indexOf(':') == colon)) {
            host = server.substring(0, colon);
            try {
                port = Integer.parseInt(server.substring(colon + 1));
            } catch (NumberFormatException e) {
                log.warn("cluster-endpoint-unreadable server={}", server);
                return List.of();
            }
        }
        host = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        List<Endpoint> endpoints = new ArrayList<>();
        endpoints.add(new Endpoint(host, null, port));
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                endpoints.add(new Endpoint(null, address, port));
                if (address.isAnyLocalAddress()) {
                    for (InetAddress local : localAddresses()) {
                        endpoints.add(new Endpoint(null, local, port));
                    }
                }
            }
        } catch (UnknownHostException e) {
            log.debug("cluster-endpoint-unresolved host={}", host);
        }
        return endpoints;
    }

    private static List<InetAddress> localAddresses() {
        List<InetAddress> addresses = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                addresses.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException e) {
            log.warn("local-addresses-unknown error={}", e.toString());
        }
        addresses.add(InetAddress.getLoopbackAddress());
        return addresses;
    }
}
