package io.drover.bench;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The receiving end of P6's completion callbacks (SPEC 13): an HTTP server on loopback that answers 200 to every POST
 * and remembers, per task guid, when the first callback for it arrived (wall clock, milliseconds) and how many came.
 * Runs on the benchmark's client threads (and the JDK server's dispatcher, remembered as the benchmark's), so that the
 * CPU account leaves it out with the benchmark's other clients.
 */
final class CallbackRecorder implements AutoCloseable {

    private static final Pattern TASK_GUID = Pattern.compile("\"task_guid\"\\s*:\\s*\"([^\"]+)\"");

    private final HttpServer server;
    private final ExecutorService threads;
    private final Map<String, Long> firstAt = new ConcurrentHashMap<>();
    private final Map<String, Integer> count = new ConcurrentHashMap<>();

    CallbackRecorder() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        threads = BenchThreads.pool(8);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            long at = System.currentTimeMillis();
            try (InputStream body = exchange.getRequestBody()) {
                Matcher guid = TASK_GUID.matcher(new String(body.readAllBytes(), StandardCharsets.UTF_8));
                if (guid.find()) {
                    firstAt.putIfAbsent(guid.group(1), at);
                    count.merge(guid.group(1), 1, Integer::sum);
                }
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        BenchThreads.rememberHttpServerDispatchers();
    }

    /** Where callbacks go: {@code http://127.0.0.1:PORT/done}. */
    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/done";
    }

    /** How many distinct tasks whose guid starts with {@code prefix} had a callback. */
    long delivered(String prefix) {
        return firstAt.keySet().stream().filter(g -> g.startsWith(prefix)).count();
    }

    /** When each task's first callback arrived, by guid (epoch ms). */
    Map<String, Long> firstArrivals() {
        return Map.copyOf(firstAt);
    }

    /** Callbacks received beyond the first, for tasks whose guid starts with {@code prefix}. */
    long repeats(String prefix) {
        return count.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(e -> e.getValue() - 1)
                .sum();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
