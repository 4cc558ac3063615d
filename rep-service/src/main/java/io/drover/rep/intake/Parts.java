package io.drover.rep.intake;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A message's work handed over in parts (the placements of one auction result, queued one by one on their cell): the
 * message is done once each part is. Each part runs the returned done exactly once, from any thread.
 */
public final class Parts {

    private Parts() {
    }

    /** Runs {@code whole} once the returned done has run {@code parts} times (at once for no part). */
    public static Runnable of(int parts, Runnable whole) {
        if (parts <= 0) {
            whole.run();
            return () -> {
            };
        }
        AtomicInteger left = new AtomicInteger(parts);
        return () -> {
            if (left.decrementAndGet() == 0) {
                whole.run();
            }
        };
    }
}
