package io.drover.verify.observe;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.history.RunClock;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Reads {@code GET /v1/events} on a thread of its own and records every event; when the stream ends it records that,
 * and opens a new one (a stream of a new number: the events check follows each stream apart).
 */
public final class EventRecorder implements AutoCloseable {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final String url;
    private final String authorization;
    private final HistoryFile history;
    private final RunClock clock;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile InputStream current;
    private volatile int stream;

    public EventRecorder(String baseUrl, String authorization, HistoryFile history, RunClock clock) {
        this.url = baseUrl + "/v1/events";
        this.authorization = authorization;
        this.history = history;
        this.clock = clock;
        this.thread = new Thread(this::loop, "verify-events");
        this.thread.setDaemon(true);
    }

    /** Starts reading and returns once the first stream is open (the receptor answers once its feed is live). */
    public EventRecorder start() {
        thread.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (stream == 0 && System.nanoTime() < deadline) {
            pause(50);
        }
        return this;
    }

    private void loop() {
        while (running) {
            int number = stream + 1;
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", authorization)
                        .header("Accept", "text/event-stream").GET().build();
                HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() != 200) {
                    response.body().close();
                    throw new IllegalStateException("GET /v1/events answered " + response.statusCode());
                }
                current = response.body();
                history.add(new Entry.Stream(number, "opened", clock.now(), null));
                stream = number;
                read(number, response.body());
                history.add(new Entry.Stream(number, "closed", clock.now(), "ended by the server"));
            } catch (Exception e) {
                if (stream == number) {
                    history.add(new Entry.Stream(number, "closed", clock.now(), e.toString()));
                }
                stream = Math.max(stream, number);
                pause(500);
            }
        }
    }

    private void read(int number, InputStream body) throws Exception {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String id = null;
            String name = null;
            StringBuilder data = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    if (name != null && !data.isEmpty()) {
                        history.add(new Entry.Event(number, id, name, Json.tree(data.toString()), clock.now()));
                    }
                    id = null;
                    name = null;
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).trim();
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).trim();
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).stripLeading());
                }
            }
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            InputStream in = current;
            if (in != null) {
                in.close();
            }
        } catch (Exception e) {
            // closing
        }
        thread.interrupt();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
