package io.drover.receptor.events;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A test SSE client: reads a stream on its own thread and keeps every event and comment it saw. Given a condition, it
 * stops reading (and hangs up) right after the event that meets it, so the last id it kept is the last it read.
 */
final class SseFrames implements AutoCloseable {

    /** One {@code id:/event:/data:} block. */
    record Frame(String id, String event, String data) {
    }

    final List<Frame> events = new CopyOnWriteArrayList<>();
    final List<String> comments = new CopyOnWriteArrayList<>();

    private final InputStream stream;
    private final Predicate<List<Frame>> stopWhen;
    private final Thread reader;

    SseFrames(InputStream stream) {
        this(stream, frames -> false);
    }

    SseFrames(InputStream stream, Predicate<List<Frame>> stopWhen) {
        this.stream = stream;
        this.stopWhen = stopWhen;
        this.reader = new Thread(() -> read(stream), "test-sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private void read(InputStream stream) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String id = null;
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    if (event != null) {
                        events.add(new Frame(id, event, data.toString()));
                        if (stopWhen.test(events)) {
                            return;
                        }
                    }
                    id = null;
                    event = null;
                    data.setLength(0);
                } else if (line.startsWith(":")) {
                    comments.add(line.substring(1));
                } else if (line.startsWith("id:")) {
                    id = line.substring(3);
                } else if (line.startsWith("event:")) {
                    event = line.substring(6);
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5));
                }
            }
        } catch (IOException e) {
            // stream closed
        }
    }

    /** Whether the reader has stopped: the stream ended, was closed, or the stop condition was met. */
    boolean stopped(Duration wait) throws InterruptedException {
        reader.join(wait.toMillis());
        return !reader.isAlive();
    }

    /** The id of the last event read. */
    String lastId() {
        return events.get(events.size() - 1).id();
    }

    /** Hangs up: the receptor notices at its next write to this stream (a heartbeat at the latest). */
    @Override
    public void close() throws IOException {
        stream.close();
    }
}
