package io.drover.cli.lrp;

import io.drover.cli.api.ApiException;
import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.output.WatchOptions;
import io.drover.cli.session.Session;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code drover status NAME [--watch]}: one line per instance. */
@Command(name = "status", description = "Show each instance of NAME: state, cell, address, since, crashes.")
public final class StatusCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Mixin
    WatchOptions watching;

    public StatusCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        return watching.run(session.output(), this::frame);
    }

    private void frame() {
        Receptor receptor = session.receptor();
        String guid = Receptor.encode(name);
        List<JsonNode> actuals = receptor.list("/v1/actual_lrps/" + guid);
        JsonNode desired = desired(receptor, guid, actuals.isEmpty());
        Output output = session.output();
        if (output.json()) {
            actuals.forEach(output::json);
            return;
        }
        long running = actuals.stream().filter(a -> "RUNNING".equals(a.path("state").asString())).count();
        output.line(desired == null ? name + ": no longer desired, " + running + " running"
                : name + ": " + running + "/" + desired.path("instances").asInt() + " running, domain "
                        + desired.path("domain").asString() + ", " + desired.path("memory_mb").asInt() + " MB, "
                        + StatusView.command(desired));
        String autoscaling = desired == null ? null : StatusView.autoscaling(desired, session.clock().instant());
        if (autoscaling != null) {
            output.line(autoscaling);
        }
        if (!actuals.isEmpty()) {
            output.table(StatusView.table(actuals, session.clock().instant(), output));
        }
    }

    /** The desired LRP; null when it is gone but instances are left; its 404 when there is nothing at all. */
    private static JsonNode desired(Receptor receptor, String guid, boolean noInstances) {
        try {
            return receptor.get("/v1/desired_lrps/" + guid);
        } catch (ApiException e) {
            if (e.status() == 404 && !noInstances) {
                return null;
            }
            throw e;
        }
    }
}
