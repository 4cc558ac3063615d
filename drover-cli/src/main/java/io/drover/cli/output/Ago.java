package io.drover.cli.output;

import io.drover.cli.json.JsonNode;
import java.time.Duration;
import java.time.Instant;

/** "3m ago": how long ago something happened, in its largest whole unit. */
public final class Ago {

    private Ago() {
    }

    public static String of(Instant then, Instant now) {
        Duration ago = Duration.between(then, now);
        if (ago.isNegative()) {
            return "just now";
        }
        long s = ago.toSeconds();
        if (s < 60) {
            return s + "s ago";
        }
        if (s < 3600) {
            return s / 60 + "m ago";
        }
        if (s < 86400) {
            return s / 3600 + "h ago";
        }
        return s / 86400 + "d ago";
    }

    /** How long ago an instant the API wrote happened (ISO-8601 text or epoch milliseconds); "-" when unreadable. */
    public static String of(JsonNode at, Instant now) {
        try {
            return of(at.isNumber() ? Instant.ofEpochMilli(at.asLong()) : Instant.parse(at.asString()), now);
        } catch (RuntimeException e) {
            return "-";
        }
    }

    /** "in 25s": how long until something happens. */
    public static String until(Instant then, Instant now) {
        long s = Math.max(0, Duration.between(now, then).toSeconds());
        return s < 60 ? "in " + s + "s" : s < 3600 ? "in " + s / 60 + "m" : "in " + s / 3600 + "h";
    }
}
