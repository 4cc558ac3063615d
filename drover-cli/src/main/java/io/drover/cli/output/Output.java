package io.drover.cli.output;

import io.drover.cli.json.JsonNode;
import java.io.PrintStream;

/**
 * Where and how a command prints: {@code table} for people (aligned, coloured only on a terminal) or {@code json}
 * (one compact JSON object per line, cfdot's convention, for {@code jq}). Errors go to stderr.
 */
public final class Output {

    private final PrintStream out;
    private final PrintStream err;
    private final boolean json;
    private final boolean color;

    public Output(PrintStream out, PrintStream err, boolean json, boolean color) {
        this.out = out;
        this.err = err;
        this.json = json;
        this.color = color && !json;
    }

    public boolean json() {
        return json;
    }

    /** Colour is on: the output is a terminal, NO_COLOR is not set, and it is not JSON. */
    public boolean color() {
        return color;
    }

    public String paint(Ansi ansi, String text) {
        return color ? ansi.paint(text) : text;
    }

    public void line(String text) {
        synchronized (out) {
            out.println(text);
            out.flush();
        }
    }

    public void json(JsonNode node) {
        line(node.toString());
    }

    public void table(Table table) {
        synchronized (out) {
            table.lines().forEach(out::println);
            out.flush();
        }
    }

    public void error(String text) {
        err.println(text);
        err.flush();
    }

    public PrintStream out() {
        return out;
    }
}
