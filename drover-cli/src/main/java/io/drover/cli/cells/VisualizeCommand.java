package io.drover.cli.cells;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.output.WatchOptions;
import io.drover.cli.session.Session;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover visualize [--watch]}: the instances on each cell, coloured by state. */
@Command(name = "visualize", description = "Show the instances on each cell, coloured by state (like ltc visualize).")
public final class VisualizeCommand implements Callable<Integer> {

    private final Session session;

    @Mixin
    WatchOptions watching;

    public VisualizeCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        return watching.run(session.output(), this::frame);
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
