package io.drover.cli.lrp;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover delete NAME}: its instances are stopped. */
@Command(name = "delete", description = "Delete a desired LRP; its instances are stopped.")
public final class DeleteCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    public DeleteCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        session.receptor().call("DELETE", "/v1/desired_lrps/" + Receptor.encode(name), null);
        Output output = session.output();
        if (output.json()) {
            output.json(Json.object().put("process_guid", name).put("deleted", true));
        } else {
            output.line("deleted " + name);
        }
        return 0;
    }
}
