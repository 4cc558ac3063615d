package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One connected stream, written by its own thread, so a client whose socket is slow only ever blocks itself. It first
 * catches up from PostgreSQL (everything after the position it starts at), then writes what the tail publishes,
 * through a bounded queue the tail only ever offers to. Each event is written once and in order, whatever the tail
 * and the catching up overlap: {@code handled} is the last position written (or skipped), a frame at or before it is
 * a repeat, and a frame whose predecessor lies after it shows a gap (the client started after the tail, or its queue
 * overflowed), which is closed by catching up again; the frame is then within what was read. The tail's mark of
 * where it starts is such a predecessor: events the tail read past before its first frame are read too.
 */
final class SseClient implements Runnable {

    private final SseEmitter emitter;
    private final BlockingQueue<EventFrame> queue;
    private final Function<EventPosition, EventReplay.Batch> replay;
    private final Runnable onClose;
    private final Runnable onOverflow;
    private volatile boolean closed;
    private volatile boolean behind;
    private EventPosition handled;

    SseClient(SseEmitter emitter, EventPosition start, int buffer, Function<EventPosition, EventReplay.Batch> replay,
            Runnable onClose,
            Runnable onOverflow) {
        this.emitter = emitter;
        this.handled = start;
        this.queue = new ArrayBlockingQueue<>(buffer);
        this.replay = replay;
        this.onClose = onClose;
        this.onOverflow = onOverflow;
    }

    /**
     * Queues a frame; never blocks. A full queue drops it (a comment is not missed) and the client catches up from
     * PostgreSQL, where every event the tail publishes already is.
     */
    void offer(EventFrame frame) {
        if (!closed && !queue.offer(frame) && frame.position() != null && !behind) {
            behind = true;
            onOverflow.run();
        }
    }

    /** Stops the writer; the emitter is completed by the writer thread, never by the caller. */
    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void run() {
        try {
            emitter.send(EventFrame.comment("connected").data()); // before what it catches up on
            catchUp();
            while (!closed) {
                if (behind) {
                    behind = false;
                    queue.clear(); // all of it is in PostgreSQL, read next
                    catchUp();
                }
                EventFrame frame = queue.poll(1, TimeUnit.SECONDS);
                if (frame != null && !closed) {
                    write(frame);
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

    private void write(EventFrame frame) throws IOException {
        if (frame.position() == null) {
            emitter.send(frame.data());
        } else if (frame.previous().isAfter(handled)) {
            catchUp(); // a gap before this frame: the read covers it and the frame
        } else if (frame.isEvent() && frame.position().isAfter(handled)) {
            emitter.send(frame.data());
            handled = frame.position();
        }
    }

    /** Writes every settled event after {@code handled}, a batch at a time, until a batch is not full. */
    private void catchUp() throws IOException {
        EventReplay.Batch batch;
        do {
            batch = replay.apply(handled);
            for (EventFrame frame : batch.frames()) {
                if (closed) {
                    return;
                }
                emitter.send(frame.data());
            }
            handled = batch.end();
        } while (batch.full() && !closed);
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
}
