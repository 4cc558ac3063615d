package io.drover.converger.callback;

import io.drover.model.json.Json;
import io.drover.model.task.TaskSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * POSTs a task's JSON to its callback URL, asynchronously: each attempt has {@code timeout} to connect and be answered,
 * redirects are not followed, and the answer's body is discarded. Reports the HTTP status, or null when no answer came
 * (refused, reset, timed out, or a URL the client cannot even send to).
 */
final class CallbackSender implements AutoCloseable {

    private final ExecutorService threads;
    private final HttpClient http;
    private final Duration timeout;

    CallbackSender(int threads, Duration timeout) {
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "task-callback-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).executor(this.threads)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    void send(TaskSnapshot task, Consumer<Integer> answered) {
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(task.definition().completionCallbackUrl())).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(task))).build();
        } catch (RuntimeException e) {
            threads.execute(() -> answered.accept(null));
            return;
        }
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .whenComplete((response, error) -> answered.accept(response == null ? null : response.statusCode()));
    }

    /** Where a callback goes, for the log: the host only (a URL may carry credentials or tokens). */
    static String host(TaskSnapshot task) {
        try {
            return URI.create(task.definition().completionCallbackUrl()).getHost();
        } catch (RuntimeException e) {
            return "invalid";
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
