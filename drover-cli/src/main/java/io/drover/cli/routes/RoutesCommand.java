package io.drover.cli.routes;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.output.Table;
import io.drover.cli.session.Session;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover routes [NAME] [--domain D]}: every hostname the router serves, the LRP and port behind it and the
 * instances it reaches now, as the API lists them (the router's own table follows the same records within a moment).
 */
@Command(name = "routes", description = "List the router's hostnames and the instances each reaches.")
public final class RoutesCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "only this desired LRP's routes")
    String name;

    @Option(names = { "-d", "--domain" }, description = "only this domain")
    String domain;

    public RoutesCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        Receptor receptor = session.receptor();
        List<JsonNode> desired = name != null ? List.of(receptor.get("/v1/desired_lrps/" + Receptor.encode(name)))
                : receptor.list("/v1/desired_lrps" + (domain == null ? "" : "?domain=" + Receptor.encode(domain)));
        List<JsonNode> actuals = name != null ? receptor.list("/v1/actual_lrps/" + Receptor.encode(name))
                : receptor.list("/v1/actual_lrps" + (domain == null ? "" : "?domain=" + Receptor.encode(domain)));
        RouteList routes = RouteList.of(desired, actuals);
        Output output = session.output();
        if (output.json()) {
            routes.routes().forEach(r -> output.json(json(r)));
            return 0;
        }
        if (routes.routes().isEmpty()) {
            output.line("no routes (a desired LRP's \"routes\": {\"cf-router\": [{\"hostnames\": [...], \"port\": P}]})");
            return 0;
        }
        Table table = new Table("HOSTNAME", "NAME", "PORT", "INSTANCES", "REACHES");
        for (RouteList.Route route : routes.routes()) {
            String count = String.valueOf(route.instances().size());
            table.row(route.hostname(), route.processGuid(), String.valueOf(route.port()),
                    output.paint(route.instances().isEmpty() ? Ansi.YELLOW : Ansi.GREEN, count),
                    route.instances().isEmpty() ? "- (the router answers 502)"
                            : String.join(", ", route.instances().stream().map(RouteList.Instance::where).toList()));
        }
        output.table(table);
        return 0;
    }

    private static ObjectNode json(RouteList.Route route) {
        ObjectNode node = Json.object().put("hostname", route.hostname()).put("process_guid", route.processGuid())
                .put("port", route.port());
        var instances = node.putArray("instances");
        for (RouteList.Instance i : route.instances()) {
            instances.addObject().put("index", i.index()).put("address", i.address()).put("host_port", i.hostPort())
                    .put("evacuating", i.evacuating());
        }
        return node;
    }
}
