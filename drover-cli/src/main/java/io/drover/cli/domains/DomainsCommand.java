package io.drover.cli.domains;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code drover domains}: the domains that are fresh now (the converger only stops work in those). */
@Command(name = "domains", description = "List the fresh domains.")
public final class DomainsCommand implements Callable<Integer> {

    private final Session session;

    public DomainsCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        List<JsonNode> domains = session.receptor().list("/v1/domains");
        Output output = session.output();
        for (JsonNode domain : domains) {
            if (output.json()) {
                output.json(Json.object().put("domain", domain.asString()));
            } else {
                output.line(domain.asString());
            }
        }
        return 0;
    }
}
