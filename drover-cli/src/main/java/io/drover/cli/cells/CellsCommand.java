package io.drover.cli.cells;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ago;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Bar;
import io.drover.cli.output.Output;
import io.drover.cli.output.Table;
import io.drover.cli.output.WatchOptions;
import io.drover.cli.session.Session;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover cells [--watch]}: zone, state, memory and container use as bars, last heartbeat. */
@Command(name = "cells", description = "Show the cells: zone, state, memory and containers in use.")
public final class CellsCommand implements Callable<Integer> {

    static final int BAR_WIDTH = 20;

    private final Session session;

    @Mixin
    WatchOptions watching;

    public CellsCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        return watching.run(session.output(), this::frame);
    }

    private void frame() {
        List<JsonNode> cells = session.receptor().list("/v1/cells");
        Output output = session.output();
        if (output.json()) {
            cells.forEach(output::json);
            return;
        }
        output.table(table(cells, session.clock().instant(), output));
    }

    static Table table(List<JsonNode> cells, Instant now, Output output) {
        Table table = new Table("CELL", "ZONE", "STATE", "MEMORY", "CONTAINERS", "HEARTBEAT");
        for (JsonNode cell : cells) {
            JsonNode capacity = cell.path("capacity");
            JsonNode available = cell.path("available");
            String state = cell.path("state").asString();
            table.row(cell.path("cell_id").asString(), cell.path("zone").asString(),
                    output.paint("ACTIVE".equals(state) ? Ansi.GREEN : Ansi.YELLOW, state),
                    Bar.of(used(capacity, available, "memory_mb"), capacity.path("memory_mb").asLong(), BAR_WIDTH, "MB"),
                    Bar.of(used(capacity, available, "containers"), capacity.path("containers").asLong(), BAR_WIDTH, ""),
                    Ago.of(cell.path("heartbeat_at"), now));
        }
        return table;
    }

    private static long used(JsonNode capacity, JsonNode available, String field) {
        return capacity.path(field).asLong() - available.path(field).asLong();
    }

}
