package io.drover.receptor.events;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One connected stream: a bounded queue filled by the broadcaster (never blocking it) and drained by this client's own
 * writer thread, so a client whose socket is slow only ever blocks itself. When its queue is full the client is
 * dropped; it reconnects and carries on from the live stream.
 */
final class SseClient implements Runnable {

    private final SseEmitter emitter;
    private final BlockingQueue<Set<DataWithMediaType>> queue;
    private final Runnable onClose;
    private volatile boolean closed;

    SseClient(SseEmitter emitter, int buffer, Runnable onClose) {
        this.emitter = emitter;
        this.queue = new ArrayBlockingQueue<>(buffer);
        this.onClose = onClose;
    }

    static Set<DataWithMediaType> event(long id, String name, String data) {
        return SseEmitter.event().id(Long.toString(id)).name(name).data(data, MediaType.APPLICATION_JSON).build();
    }

    static Set<DataWithMediaType> comment(String text) {
        return SseEmitter.event().comment(text).build();
    }

    /** Queues a frame; false when the buffer is full (the caller drops this client). Never blocks. */
    boolean offer(Set<DataWithMediaType> frame) {
        return !closed && queue.offer(frame);
    }

    /** Stops the writer; the emitter is completed by the writer thread, never by the caller. */
    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    private void finish(Throwable failure) {
        try {
            if (failure == null) {
                emitter.complete();
            } else {
                emitter.completeWithError(failure);
            }
        } catch (RuntimeException e) {
            // Already completed by the container (client gone): nothing left to close.
        }
    }

    @Override
    public void run() {
        try {
            while (!closed) {
                Set<DataWithMediaType> frame = queue.poll(1, TimeUnit.SECONDS);
                if (frame != null && !closed) {
                    emitter.send(frame);
                }
            }
            finish(null);
        } catch (IOException | RuntimeException e) {
            finish(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finish(null);
        } finally {
            closed = true;
            onClose.run();
        }
    }
}
