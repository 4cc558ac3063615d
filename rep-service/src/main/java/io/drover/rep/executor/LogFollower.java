package io.drover.rep.executor;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A reader following an instance's log: the lines the log hands it wait in a bounded queue, so the writer never waits
 * for a slow reader. A reader that falls a whole queue behind is cut off (it sees the end; its client reconnects),
 * as the receptor's event stream does. The log ends it when the instance is gone.
 */
public final class LogFollower implements AutoCloseable {

    private final BlockingQueue<LogLine> queue;
    private volatile boolean ended;
    private volatile boolean overflowed;

    public LogFollower(int capacity) {
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    /** Called by the log; never blocks. A full queue ends the follower. */
    public void offer(LogLine line) {
        if (!ended && !queue.offer(line)) {
            overflowed = true;
            ended = true;
        }
    }

    /** No more lines will come (the instance is gone, or the reader closed). */
    public void end() {
        ended = true;
    }

    /** The next line, waiting up to {@code timeout}; null when none came in time or the follower is done. */
    public LogLine poll(Duration timeout) throws InterruptedException {
        LogLine line = queue.poll();
        if (line != null || ended) {
            return line;
        }
        return queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Ended and drained: the reader has seen everything it will see. */
    public boolean isDone() {
        return ended && queue.isEmpty();
    }

    public boolean overflowed() {
        return overflowed;
    }

    @Override
    public void close() {
        ended = true;
        queue.clear();
    }
}
