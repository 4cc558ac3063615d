package io.drover.cli.session;

import java.time.Duration;

/** Durations as people type them: {@code 30s}, {@code 5m}, {@code 1h}. Pure. */
public final class Durations {

    private Durations() {
    }

    /** A positive duration; a usage error naming {@code option} otherwise. */
    public static Duration parse(String text, String option) {
        String t = text.strip().toLowerCase();
        try {
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            Duration d = switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> null;
            };
            if (d != null && !d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (RuntimeException e) {
            // said below
        }
        throw new UsageException(option + " takes a duration such as 30s, 5m or 1h, not '" + text + "'");
    }
}
