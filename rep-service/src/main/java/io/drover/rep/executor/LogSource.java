package io.drover.rep.executor;

import java.util.Arrays;
import java.util.Optional;

/**
 * Where a line of an instance's log came from: the process's stdout or stderr, or the rep itself (its lifecycle lines:
 * claimed, started, health check passed or failed, crashed with reason, stopped). An {@code emit_progress} action,
 * once it exists, writes its messages through {@link InstanceLog}'s owner as a source of its own beside these.
 */
public enum LogSource {
    STDOUT("stdout"), STDERR("stderr"), REP("rep");

    private final String label;

    LogSource(String label) {
        this.label = label;
    }

    /** The name in a formatted line and in the {@code stream} filter: {@code stdout}, {@code stderr}, {@code rep}. */
    public String label() {
        return label;
    }

    public static Optional<LogSource> byLabel(String label) {
        return Arrays.stream(values()).filter(s -> s.label.equals(label)).findFirst();
    }
}
