package io.drover.rep.logs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.model.json.Json;
import io.drover.rep.cell.LogEndpoint;
import io.drover.rep.executor.InstanceLog;
import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cell's internal log server: {@code GET /v1/cells/{cell_id}/instances/{instance_guid}/logs} serves the lines of
 * one instance of any cell this rep process hosts as {@code text/plain}, the last {@code tail} of them, and with
 * {@code follow=true} every later one (chunked) until the instance is gone. Only the receptors call it: every request
 * must carry the shared secret. It binds the cell's address, not every interface, unless told otherwise.
 */
public final class LogServer implements LogEndpoint, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LogServer.class);

    private static final Duration POLL = Duration.ofSeconds(1);

    private static final int FOLLOW_BUFFER = 10_000;

    private final HttpServer server;
    private final ExecutorService threads;
    private final SharedSecret secret;
    private final BiFunction<String, String, Optional<InstanceLog>> logs;
    private final Semaphore streams;
    private final Duration maxFollow;
    private final Clock clock;
    private final String endpoint;

    private LogServer(HttpServer server, ExecutorService threads, SharedSecret secret,
            BiFunction<String, String, Optional<InstanceLog>> logs, LogServerProperties properties, Clock clock,
            String advertisedHost) {
        this.server = server;
        this.threads = threads;
        this.secret = secret;
        this.logs = logs;
        this.streams = new Semaphore(Math.max(1, properties.maxStreams()));
        this.maxFollow = properties.maxFollow();
        this.clock = clock;
        this.endpoint = "http://" + (advertisedHost.contains(":") ? "[" + advertisedHost + "]" : advertisedHost) + ":"
                + server.getAddress().getPort();
    }

    /**
     * Binds and starts serving.
     *
     * @param logs finds the log of an instance by cell id and instance guid
     * @param cellAddress the cell's address: bound unless {@code properties.address()} says otherwise, and advertised
     *     when the bound address is a wildcard
     */
    static LogServer start(LogServerProperties properties, String secret, String cellAddress,
            BiFunction<String, String, Optional<InstanceLog>> logs, Clock clock) {
        String bind = properties.address() == null || properties.address().isBlank() ? cellAddress
                : properties.address();
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "rep-logs-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            InetAddress address = InetAddress.getByName(bind);
            HttpServer server = HttpServer.create(new InetSocketAddress(address, properties.port()), 64);
            server.setExecutor(threads);
            String advertised = address.isAnyLocalAddress() ? cellAddress : address.getHostAddress();
            LogServer logServer = new LogServer(server, threads, new SharedSecret(secret), logs, properties, clock,
                    advertised);
            server.createContext("/", logServer::handle);
            server.start();
            log.info("log-server-started bind={} endpoint={}", address.getHostAddress(), logServer.endpoint);
            return logServer;
        } catch (IOException e) {
            threads.shutdownNow();
            throw new UncheckedIOException("cannot bind the rep's log server to " + bind + ":" + properties.port()
                    + " (set drover.rep.logs.address to an address of this machine and drover.rep.logs.port to a free "
                    + "port, or drover.rep.logs.enabled=false)", e);
        }
    }

    /** Where the receptors reach this server ({@code http://host:port}), for the cells' presence records. */
    @Override
    public String endpoint() {
        return endpoint;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!secret.matches(exchange.getRequestHeaders().getFirst("Authorization"))) {
                error(exchange, 401, "Unauthorized", "the log server needs the receptors' shared secret");
                return;
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                error(exchange, 405, "InvalidRequest", "use GET");
                return;
            }
            LogRequest request;
            try {
                request = LogRequest.parse(exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery());
            } catch (IllegalArgumentException e) {
                error(exchange, 400, "InvalidRequest", e.getMessage());
                return;
            }
            Optional<InstanceLog> instanceLog = logs.apply(request.cellId(), request.instanceGuid());
            if (instanceLog.isEmpty()) {
                error(exchange, 404, "InstanceNotFound",
                        "no instance " + request.instanceGuid() + " on cell " + request.cellId());
                return;
            }
            if (!streams.tryAcquire()) {
                error(exchange, 429, "InvalidRequest", "too many log streams on this rep; retry later");
                return;
            }
            try {
                serve(exchange, request, instanceLog.get());
            } finally {
                streams.release();
            }
        } catch (IOException e) {
            log.debug("log-stream-ended error={}", e.toString());
        }
    }

    private void serve(HttpExchange exchange, LogRequest request, InstanceLog instanceLog) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if (!request.follow()) {
            byte[] body = text(instanceLog.tail(request.tail(), request.sources()));
            exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            return;
        }
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        Instant deadline = clock.instant().plus(maxFollow);
        try (LogFollower follower = instanceLog.follow(request.tail(), request.sources(), FOLLOW_BUFFER)) {
            while (!follower.isDone() && clock.instant().isBefore(deadline)) {
                LogLine first = follower.poll(POLL);
                if (first == null) {
                    continue;
                }
                StringBuilder batch = new StringBuilder(first.format()).append('\n');
                LogLine next;
                while (batch.length() < 64 * 1024 && (next = follower.poll(Duration.ZERO)) != null) {
                    batch.append(next.format()).append('\n');
                }
                out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.close();
    }

    private static byte[] text(List<LogLine> lines) {
        StringBuilder text = new StringBuilder();
        lines.forEach(line -> text.append(line.format()).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void error(HttpExchange exchange, int status, String name, String message) throws IOException {
        byte[] body = Json.write(Map.of("name", name, "message", message)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }
}
