package io.drover.cli.cells;

import io.drover.cli.output.Output;
import io.drover.cli.output.Watch;
import io.drover.cli.session.Session;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/** {@code drover visualize [--watch]}: the instances on each cell, coloured by state. */
@Command(name = "visualize", description = "Show the instances on each cell, coloured by state (like ltc visualize).")
public final class VisualizeCommand implements Callable<Integer> {

    private final Session session;

    @Option(names = { "-w", "--watch" }, description = "refresh in place until Ctrl-C")
    boolean watch;

    @Option(names = "--interval", defaultValue = "2", paramLabel = "SECONDS", description = "refresh interval (default 2)")
    int interval;

    @Option(names = "--frames", hidden = true, defaultValue = "0")
    int frames;

    public VisualizeCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if (watch) {
            Watch.run(session.output(), Duration.ofSeconds(Math.max(1, interval)), frames, this::frame);
        } else {
            frame();
        }
        return 0;
    }

    private void frame() {
        List<JsonNode> cells = session.receptor().list("/v1/cells");
        List<JsonNode> actuals = session.receptor().list("/v1/actual_lrps");
        Output output = session.output();
        if (output.json()) {
            Visualization.json(cells, actuals).forEach(output::json);
        } else {
            Visualization.lines(cells, actuals, output).forEach(output::line);
        }
    }
}
