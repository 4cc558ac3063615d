package io.drover.cli.cells;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover undrain CELL}: the cell's drain is withdrawn; it takes work again (SPEC 18). */
@Command(name = "undrain", description = "Undrain a cell: it is ACTIVE and takes work again (what it handed over "
        + "stays where it went).")
public final class UndrainCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "CELL")
    String cell;

    public UndrainCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        JsonNode undrained = session.receptor().call("DELETE", "/v1/cells/" + Receptor.encode(cell) + "/drain", null);
        Output output = session.output();
        if (output.json()) {
            output.json(undrained);
        } else {
            output.line(DrainView.line(undrained, session.clock().instant()));
        }
        return 0;
    }
}
