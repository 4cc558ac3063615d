package io.drover.receptor.ui;

import java.time.Duration;
import java.time.Instant;

/** How the pages word numbers and times: pure, so each wording is tested with a table of cases. */
final class Display {

    private Display() {
    }

    /** {@code used} of {@code capacity} as a whole percentage, 0 to 100 (a full or overcommitted cell shows 100). */
    static int percent(long used, long capacity) {
        if (capacity <= 0 || used <= 0) {
            return 0;
        }
        return (int) Math.min(100, Math.round(used * 100.0 / capacity));
    }

    /** How long ago {@code then} was, read at a glance: "4s", "12m", "3h", "2d" ("0s" for the future). */
    static String ago(Instant then, Instant now) {
        long seconds = Math.max(0, Duration.between(then, now).toSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3_600) {
            return seconds / 60 + "m";
        }
        if (seconds < 86_400) {
            return seconds / 3_600 + "h";
        }
        return seconds / 86_400 + "d";
    }

    /** A count with thousands separators ("100,000"). */
    static String count(long n) {
        return String.format("%,d", n);
    }
}
