package io.drover.cli.lrp;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover autoscale NAME --min 1 --max 10 --cpu 60 [--memory 80] [--scale-down-delay 5m]}, or {@code --off}. */
@Command(name = "autoscale", description = "Scale NAME on its instances' CPU and/or memory between --min and --max, "
        + "or stop (--off: instances stay as they are).")
public final class AutoscaleCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = "--min", paramLabel = "N", description = "fewest instances (1)")
    Integer min;

    @Option(names = "--max", paramLabel = "N", description = "most instances")
    Integer max;

    @Option(names = "--cpu", paramLabel = "PERCENT", description = "target mean CPU per instance, % of one core")
    Integer cpu;

    @Option(names = "--memory", paramLabel = "PERCENT", description = "target mean memory per instance, % of its limit")
    Integer memory;

    @Option(names = "--scale-up-delay", paramLabel = "DURATION", description = "load must stay up this long (0)")
    String scaleUpDelay;

    @Option(names = "--scale-down-delay", paramLabel = "DURATION", description = "load must stay down this long (5m)")
    String scaleDownDelay;

    @Option(names = "--off", description = "remove the policy; the instances stay as they are")
    boolean off;

    public AutoscaleCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        AutoscaleRequest request = new AutoscaleRequest(off, min, max, cpu, memory, scaleUpDelay, scaleDownDelay);
        ObjectNode body = request.toJson();
        session.receptor().call("PUT", "/v1/desired_lrps/" + Receptor.encode(name), body.toString());
        Output output = session.output();
        if (output.json()) {
            output.json(Json.object().put("process_guid", name).set("autoscaling", body.path("autoscaling")));
        } else {
            output.line(off ? "autoscaling of " + name + " is off; its instances stay as they are"
                    : "autoscaling " + name + ": " + request.describe());
        }
        return 0;
    }
}
