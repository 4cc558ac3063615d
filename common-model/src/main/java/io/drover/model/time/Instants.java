package io.drover.model.time;

import java.time.Instant;

/** The earlier or later of two instants, where null means "none" (the other one wins; both null gives null). */
public final class Instants {

    private Instants() {
    }

    public static Instant earlier(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    public static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }
}
