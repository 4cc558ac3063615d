package io.drover.cli.deploy;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Durations;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover deploy NAME [what changes] [strategy] [--wait] [-- CMD ARGS...]}: a rolling update of NAME's
 * definition (SPEC 14), instance by instance, gated by health; with {@code --wait} it follows the rollout.
 */
@Command(name = "deploy", description = "Roll NAME to a new definition, instance by instance (a deployment).",
        footer = { "", "What changes takes the flags of 'desire'; -e replaces the whole environment, -p all ports.",
                "Examples:", "  drover deploy web -e VERSION=2 --wait",
                "  drover deploy web --max-surge 50% --canary 1 -- python3 -m http.server $PORT",
                "  drover deploy web -f change.json" })
public final class DeployCommand implements Callable<Integer> {

    private final Session session;

    @Parameters(index = "0", paramLabel = "NAME", description = "the process_guid")
    String name;

    @Parameters(index = "1..*", paramLabel = "CMD", description = "the new command and its arguments, after --")
    List<String> command = new ArrayList<>();

    @Option(names = { "-f", "--file" }, paramLabel = "FILE", description = "the change as JSON (the API's body)")
    Path file;

    @Option(names = { "-m", "--memory-mb" }, description = "memory per instance, MB")
    Integer memoryMb;

    @Option(names = "--disk-mb", description = "disk per instance, MB")
    Integer diskMb;

    @Option(names = { "-p", "--port" }, paramLabel = "PORT", description = "a container port (repeatable)")
    List<Integer> ports = new ArrayList<>();

    @Option(names = { "-e", "--env" }, paramLabel = "NAME=VALUE", description = "an environment variable (repeatable)")
    List<String> env = new ArrayList<>();

    @Option(names = "--check", paramLabel = "tcp|http:/PATH|none", description = "health check on the first --port")
    String check;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", description = "crash if not healthy within this long")
    Integer startTimeout;

    @Option(names = "--max-surge", paramLabel = "N|N%", description = "extra instances at a time (default 25%)")
    String maxSurge;

    @Option(names = "--max-unavailable", paramLabel = "N|N%", description = "instances down at a time (default 0)")
    String maxUnavailable;

    @Option(names = "--min-healthy-time", paramLabel = "SECONDS",
            description = "how long a new instance runs before it counts (default 10)")
    Integer minHealthyTime;

    @Option(names = "--progress-deadline", paramLabel = "SECONDS",
            description = "fail when no instance is replaced for this long (default 600)")
    Integer progressDeadline;

    @Option(names = "--canary", paramLabel = "N", description = "replace N first, then wait for promote (default 0)")
    Integer canary;

    @Option(names = "--no-auto-revert", description = "leave a failed deployment as it is (default: roll back)")
    boolean noAutoRevert;

    @Option(names = "--wait", description = "follow the rollout until it is done; exit 1 when it fails")
    boolean await;

    @Option(names = "--timeout", defaultValue = "15m", paramLabel = "DURATION",
            description = "how long --wait follows (default 15m)")
    String timeout;

    public DeployCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws InterruptedException {
        var limit = Durations.parse(timeout, "--timeout");
        ObjectNode body = new DeployRequest(memoryMb, diskMb, ports, env, check, startTimeout, command,
                new DeployRequest.Strategy(maxSurge, maxUnavailable, minHealthyTime, progressDeadline, canary,
                        noAutoRevert)).toJson(file == null ? Json.object() : fromFile());
        Rollouts rollouts = new Rollouts(session, name);
        JsonNode started = session.receptor().call("POST", rollouts.path(), body.toString());
        if (await) {
            return rollouts.follow(started, limit);
        }
        Output output = session.output();
        if (output.json()) {
            output.json(started);
        } else {
            output.line("deploying " + name + " v" + started.path("from_version").asInt() + " -> v"
                    + started.path("to_version").asInt() + " (drover rollout status " + name + ")");
        }
        return 0;
    }

    private ObjectNode fromFile() {
        try {
            if (Json.parse(Files.readString(session.workingDirectory().resolve(file))) instanceof ObjectNode change) {
                return change;
            }
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + " is not JSON: " + e.getMessage());
        }
        throw new UsageException(file + " must hold one JSON object (the change)");
    }
}
