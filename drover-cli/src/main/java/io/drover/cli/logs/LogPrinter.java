package io.drover.cli.logs;

import io.drover.cli.json.Json;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.session.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Consumer;

/**
 * How a log is asked for and printed, for an instance ({@code drover logs}) or a task ({@code drover task logs}): the
 * query, the lines read off the receptor's stream, and each line for people (coloured by source on a terminal) or as
 * JSON ({@code key} names what the log is of: {@code process_guid} or {@code task_guid}).
 */
public final class LogPrinter {

    private static final Set<String> STREAMS = Set.of("stdout", "stderr", "rep");

    private final Output output;
    private final String key;
    private final String guid;
    private final boolean prefixIndex;

    public LogPrinter(Output output, String key, String guid, boolean prefixIndex) {
        this.output = output;
        this.key = key;
        this.guid = guid;
        this.prefixIndex = prefixIndex;
    }

    /** {@code ?tail=N&follow=F[&stream=S]}, the options checked first. */
    public static String query(int tail, boolean follow, String stream) {
        if (stream != null && !STREAMS.contains(stream)) {
            throw new UsageException("--stream takes stdout, stderr or rep, not '" + stream + "'");
        }
        if (tail < 0) {
            throw new UsageException("--tail takes a number of lines, 0 or more");
        }
        return "?tail=" + tail + "&follow=" + follow + (stream == null ? "" : "&stream=" + stream);
    }

    /** Reads the log lines of a stream until it ends (the receptor ends it, or the instance stopped). */
    public static void read(InputStream in, int index, Consumer<LogLine> sink) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                sink.accept(LogLine.parse(index, line));
            }
        } catch (IOException e) {
            // the receptor ended the stream
        }
    }

    public void print(LogLine line) {
        if (output.json()) {
            var node = Json.object().put(key, guid);
            if (prefixIndex || "process_guid".equals(key)) {
                node.put("index", line.index());
            }
            output.json(node.put("timestamp", line.timestamp()).put("source", line.source()).put("text",
                    line.text()));
            return;
        }
        String prefix = prefixIndex ? output.paint(Ansi.BOLD, "[" + line.index() + "] ") : "";
        if (!output.color() || line.timestamp().isEmpty()) {
            output.line(prefix + line.raw());
            return;
        }
        Ansi color = switch (line.source()) {
            case "stderr" -> Ansi.RED;
            case "rep" -> Ansi.CYAN;
            default -> Ansi.GREEN;
        };
        output.line(prefix + Ansi.DIM.paint(line.timestamp()) + " " + color.paint("[" + line.source() + "]") + " "
                + line.text());
    }
}
