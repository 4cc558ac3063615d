package io.drover.cli.lrp;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.output.Table;
import io.drover.cli.session.Session;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code drover list [--domain D]}: the desired LRPs, how many of their instances run, and their autoscaling bounds. */
@Command(name = "list", description = "List desired LRPs with their running instances.")
public final class ListCommand implements Callable<Integer> {

    private final Session session;

    @Option(names = { "-d", "--domain" }, description = "only this domain")
    String domain;

    public ListCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        String query = domain == null ? "" : "?domain=" + Receptor.encode(domain);
        List<JsonNode> desired = session.receptor().list("/v1/desired_lrps" + query);
        Output output = session.output();
        if (output.json()) {
            desired.forEach(output::json);
            return 0;
        }
        Map<String, Long> running = new HashMap<>(session.receptor().list("/v1/actual_lrps" + query).stream()
                .filter(a -> "RUNNING".equals(a.path("state").asString()))
                .collect(Collectors.groupingBy(a -> a.path("process_guid").asString(), Collectors.counting())));
        Table table = new Table("NAME", "DOMAIN", "RUNNING", "AUTOSCALE", "MEMORY", "DISK", "PORTS", "COMMAND");
        for (JsonNode lrp : desired) {
            String guid = lrp.path("process_guid").asString();
            long up = running.getOrDefault(guid, 0L);
            int wanted = lrp.path("instances").asInt();
            String count = up + "/" + wanted;
            table.row(guid, lrp.path("domain").asString(), output.paint(up >= wanted ? Ansi.GREEN : Ansi.YELLOW, count),
                    StatusView.autoscalingCell(lrp), lrp.path("memory_mb").asInt() + " MB", lrp.path("disk_mb").asInt() + " MB",
                    ports(lrp), StatusView.command(lrp));
        }
        output.table(table);
        return 0;
    }

    private static String ports(JsonNode lrp) {
        StringBuilder ports = new StringBuilder();
        lrp.path("ports").forEach(p -> ports.append(ports.isEmpty() ? "" : ",").append(p.asInt()));
        return ports.isEmpty() ? "-" : ports.toString();
    }
}
