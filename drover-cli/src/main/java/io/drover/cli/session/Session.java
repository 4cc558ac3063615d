package io.drover.cli.session;

import io.drover.cli.api.Connection;
import io.drover.cli.api.Receptor;
import io.drover.cli.output.Output;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/**
 * One run of the CLI: its environment and working directory, its streams, whether they are a terminal, and the
 * output format chosen with {@code -o} (before or after the subcommand). The receptor is resolved on first use, so
 * {@code --help} and {@code completion} work without one.
 */
public final class Session {

    private final Map<String, String> env;
    private final Path workingDirectory;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;
    private final Clock clock;
    private String format = "table";
    private Receptor receptor;

    public Session(Map<String, String> env, Path workingDirectory, PrintStream out, PrintStream err, boolean terminal,
            Clock clock) {
        this.env = Map.copyOf(env);
        this.workingDirectory = workingDirectory;
        this.out = out;
        this.err = err;
        this.terminal = terminal;
        this.clock = clock;
    }

    public void format(String format) {
        if (!"table".equals(format) && !"json".equals(format)) {
            throw new UsageException("-o must be table or json, not '" + format + "'");
        }
        this.format = format;
    }

    public Output output() {
        boolean color = terminal && env.get("NO_COLOR") == null && !"dumb".equals(env.get("TERM"));
        return new Output(out, err, "json".equals(format), color);
    }

    public synchronized Receptor receptor() {
        if (receptor == null) {
            Connection connection = Connection.resolve(env, workingDirectory).orElseThrow(() ->
                    new ConfigurationException("no receptor configured: set DROVER_URL (and DROVER_USER, "
                            + "DROVER_PASSWORD), or start ./drover-local, which writes .drover/local/cluster.env"));
            receptor = new Receptor(connection);
        }
        return receptor;
    }

    public Path workingDirectory() {
        return workingDirectory;
    }

    public Clock clock() {
        return clock;
    }
}
