package io.drover.cli.logs;

/**
 * A line as the logs endpoint serves it, {@code 2025-01-31T10:00:00.123Z [stdout] hello}, taken apart; a line of any
 * other shape is kept whole as its text. Pure.
 */
public record LogLine(int index, String timestamp, String source, String text) {

    static LogLine parse(int index, String line) {
        int open = line.indexOf(" [");
        int close = open < 0 ? -1 : line.indexOf("] ", open);
        if (open <= 0 || close < 0 || line.substring(0, open).indexOf(' ') >= 0) {
            return new LogLine(index, "", "", line);
        }
        return new LogLine(index, line.substring(0, open), line.substring(open + 2, close), line.substring(close + 2));
    }

    String raw() {
        return timestamp.isEmpty() ? text : timestamp + " [" + source + "] " + text;
    }
}
