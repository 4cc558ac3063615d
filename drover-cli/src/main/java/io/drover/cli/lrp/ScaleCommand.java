package io.drover.cli.lrp;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover scale NAME N}. */
@Command(name = "scale", description = "Change how many instances of NAME are desired.")
public final class ScaleCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "INSTANCES")
    int instances;

    public ScaleCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        session.receptor().call("PUT", "/v1/desired_lrps/" + Receptor.encode(name),
                "{\"instances\": " + instances + "}");
        Output output = session.output();
        if (output.json()) {
            output.json(Json.object().put("process_guid", name).put("instances", instances));
        } else {
            output.line("scaled " + name + " to " + instances + " instance(s)");
        }
        return 0;
    }
}
