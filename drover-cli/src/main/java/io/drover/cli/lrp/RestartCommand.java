package io.drover.cli.lrp;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code drover restart NAME INDEX}: retires the instance; the converger starts its replacement. */
@Command(name = "restart", description = "Restart one instance (it is stopped and a new one takes its place).")
public final class RestartCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "INDEX")
    int index;

    public RestartCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        session.receptor().call("DELETE", "/v1/actual_lrps/" + Receptor.encode(name) + "/index/" + index, null);
        Output output = session.output();
        if (output.json()) {
            output.json(Json.object().put("process_guid", name).put("index", index)
                    .put("restarted", true));
        } else {
            output.line("restarting " + name + " instance " + index);
        }
        return 0;
    }
}
