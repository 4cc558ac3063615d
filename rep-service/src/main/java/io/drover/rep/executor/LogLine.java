package io.drover.rep.executor;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * One line of an instance's log: when the rep saw it (UTC, milliseconds), where it came from, and its text (no line
 * break). Formatted as {@code 2025-01-31T10:00:00.123Z [stdout] hello}: that is the line the log endpoints serve and
 * the journal stores, so a stored line is served as it is.
 */
public record LogLine(Instant at, LogSource source, String text) {

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    public LogLine {
        at = at.truncatedTo(ChronoUnit.MILLIS);
        text = text.replace('\n', ' ').replace('\r', ' ');
    }

    public String format() {
        return TIMESTAMP.format(at) + " [" + source.label() + "] " + text;
    }

    /** Reads a formatted line back; empty for anything that is not one. */
    public static Optional<LogLine> parse(String line) {
        int open = line.indexOf(" [");
        int close = open < 0 ? -1 : line.indexOf("] ", open);
        if (open < 0 || close < 0) {
            return Optional.empty();
        }
        Optional<LogSource> source = LogSource.byLabel(line.substring(open + 2, close));
        if (source.isEmpty()) {
            return Optional.empty();
        }
        try {
            Instant at = Instant.parse(line.substring(0, open));
            return Optional.of(new LogLine(at, source.get(), line.substring(close + 2)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
