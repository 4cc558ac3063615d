package io.drover.cli;

import io.drover.model.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** One in-process run of the CLI's main: its exit code and what it printed, as people and as JSON lines. */
record CliRun(int exit, String out, String err) {

    static CliRun of(Map<String, String> env, Path workingDirectory, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Drover.run(args, env, workingDirectory, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Each output line parsed as one JSON object (throws if one is not), by a parser other than the CLI's own. */
    List<JsonNode> json() {
        return out.lines().filter(l -> !l.isBlank()).map(Json::tree).toList();
    }
}
