package io.drover.verify.check;

import java.util.List;

/**
 * Something a check found wrong: which check, about what (a process guid, an instance, a task), when (microseconds
 * into the run), what, and the lines of the history that show it.
 */
public record Anomaly(String check, String key, long at, String message, List<String> excerpt) {

    public Anomaly {
        excerpt = List.copyOf(excerpt);
    }

    public static Anomaly of(String check, String key, long at, String message, String... excerpt) {
        return new Anomaly(check, key, at, message, List.of(excerpt));
    }

    @Override
    public String toString() {
        return check + " " + key + " at " + String.format("%.3f", at / 1e6) + "s: " + message;
    }
}
