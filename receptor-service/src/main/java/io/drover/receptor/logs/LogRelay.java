package io.drover.receptor.logs;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;

/**
 * Copies a cell's log stream to a client on a thread of its own (never a Tomcat request thread, and no database
 * connection is held), chunk by chunk as the cell sends it. A stream ends when the cell ends it (the instance
 * stopped), when the client goes away, or at the follow timeout; a bounded number of streams run at once.
 */
final class LogRelay implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LogRelay.class);

    static final MediaType TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

    private final Semaphore streams;
    private final Duration followTimeout;
    private final ExecutorService threads;
    private final ScheduledExecutorService deadlines;

    LogRelay(int maxStreams, Duration followTimeout) {
        this.streams = new Semaphore(Math.max(1, maxStreams));
        this.followTimeout = followTimeout;
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> daemon(r, "receptor-logs-" + n.incrementAndGet()));
        this.deadlines = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "receptor-logs-deadline"));
    }

    /** Takes a stream slot; false when every slot is taken. A caller that got one hands it to {@link #relay}. */
    boolean reserve() {
        return streams.tryAcquire();
    }

    void release() {
        streams.release();
    }

    /** Relays {@code in} into a new emitter (and gives back the slot once done). */
    ResponseBodyEmitter relay(InputStream in) {
        ResponseBodyEmitter emitter = new ResponseBodyEmitter(followTimeout.plusMinutes(1).toMillis());
        Runnable closeUpstream = () -> CellLogClient.close(in);
        emitter.onCompletion(closeUpstream);
        emitter.onTimeout(closeUpstream);
        emitter.onError(e -> closeUpstream.run());
        ScheduledFuture<?> deadline = deadlines.schedule(closeUpstream, followTimeout.toMillis(), TimeUnit.MILLISECONDS);
        threads.execute(() -> {
            try {
                copy(in, emitter);
            } finally {
                deadline.cancel(false);
                CellLogClient.close(in);
                streams.release();
            }
        });
        return emitter;
    }

    private static void copy(InputStream in, ResponseBodyEmitter emitter) {
        char[] buffer = new char[16 * 1024];
        try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            int n;
            while ((n = reader.read(buffer)) >= 0) {
                if (n > 0) {
                    emitter.send(new String(buffer, 0, n), TEXT);
                }
            }
        } catch (IOException | IllegalStateException e) {
            // The client went away, the cell's stream broke, or the deadline closed it: end what is left.
            log.debug("log-relay-ended error={}", e.toString());
        }
        try {
            emitter.complete();
        } catch (IllegalStateException e) {
            // already completed by the container
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
        deadlines.shutdownNow();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
