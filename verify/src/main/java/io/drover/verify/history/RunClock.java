package io.drover.verify.history;

/** The run's one clock: microseconds since it started, monotonic; and the wall-clock time of that start. */
public final class RunClock {

    private final long startNanos = System.nanoTime();
    private final long startedAtEpochMs = System.currentTimeMillis();

    public long now() {
        return (System.nanoTime() - startNanos) / 1000;
    }

    public long startedAtEpochMs() {
        return startedAtEpochMs;
    }
}
