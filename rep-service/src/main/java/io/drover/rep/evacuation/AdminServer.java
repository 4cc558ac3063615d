package io.drover.rep.evacuation;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.model.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The rep's admin endpoint, bound to the loopback interface only (a drain is an operator's act on the machine, not an
 * API): {@code POST /evacuate} drains every cell of this process, {@code POST /evacuate?cell=<id>} one of them.
 * Answers 202 with the cells now draining. The main server port stays for the actuator. There is deliberately no
 * address setting: the endpoint has no authentication, so only someone on the machine may drain it (from elsewhere,
 * through an explicit tunnel such as {@code ssh -L} or {@code docker exec}).
 */
public final class AdminServer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);

    private final int port;
    private final Evacuator evacuator;
    private volatile HttpServer server;
    private volatile ExecutorService threads;

    public AdminServer(int port, Evacuator evacuator) {
        this.port = port;
        this.evacuator = evacuator;
    }

    @Override
    public void start() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
            s.createContext("/evacuate", this::evacuate);
            threads = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "rep-admin");
                t.setDaemon(true);
                return t;
            });
            s.setExecutor(threads);
            s.start();
            server = s;
            log.info("admin-server-started address={} port={}", s.getAddress().getAddress().getHostAddress(), port());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the rep admin port " + port, e);
        }
    }

    /** The bound address: always the loopback interface (there is no setting for another). */
    public InetSocketAddress address() {
        HttpServer s = server;
        return s == null ? null : s.getAddress();
    }

    /** The bound port (useful when configured as 0). */
    public int port() {
        HttpServer s = server;
        return s == null ? -1 : s.getAddress().getPort();
    }

    private void evacuate(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                respond(exchange, 405, Map.of("name", "MethodNotAllowed", "message", "use POST"));
                return;
            }
            String cell = cellParameter(exchange.getRequestURI().getRawQuery());
            Optional<Evacuator.Draining> drain = evacuator.evacuate(cell);
            if (drain.isEmpty()) {
                respond(exchange, 404, Map.of("name", "CellNotFound", "message", "no such cell here: " + cell));
                return;
            }
            log.info("evacuation-requested cells={}", drain.get().cellIds());
            respond(exchange, 202, Map.of("evacuating", drain.get().cellIds()));
        }
    }

    static String cellParameter(String query) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("cell=")) {
                return URLDecoder.decode(pair.substring(5), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static void respond(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void stop() {
        HttpServer s = server;
        if (s != null) {
            s.stop(0);
            threads.shutdownNow();
            server = null;
        }
    }

    @Override
    public boolean isRunning() {
        return server != null;
    }
}
