package io.drover.verify.observe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * The completion callbacks' server, {@code /callbacks/<task guid>} on an address the converger reaches (the loopback
 * interface for the local cluster, the compose network's gateway for containers): it records every callback and
 * answers the first one of a task with 503 one time in three (seeded), so retries are exercised.
 */
public final class CallbackServer implements AutoCloseable {

    private final HttpServer server;
    private final HistoryFile history;
    private final RunClock clock;
    private final Random random;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private volatile int failFirstOneIn = 3;

    public CallbackServer(HistoryFile history, RunClock clock, long seed, String host) {
        this.history = history;
        this.clock = clock;
        this.random = new Random(seed ^ 0xCA11BACCL);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(host), 0), 64);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/callbacks/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "verify-callbacks");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** Answers the first callback of every task with 503 from now on (a planted bug's scenario). */
    public void failEveryFirstAttempt() {
        failFirstOneIn = 1;
    }

    public String url() {
        return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort()
                + "/callbacks";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String guid = exchange.getRequestURI().getPath().substring("/callbacks/".length());
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status;
            synchronized (random) {
                status = seen.add(guid) && random.nextInt(failFirstOneIn) == 0 ? 503 : 200;
            }
            history.add(new Entry.Callback(guid, clock.now(), status, body.isBlank() ? null : Json.tree(body)));
            exchange.sendResponseHeaders(status, -1);
        } catch (RuntimeException e) {
            exchange.sendResponseHeaders(400, -1);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
