package io.drover.cli.lrp;

import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code drover desire NAME [flags] -- CMD ARGS...} or {@code drover desire [NAME] -f lrp.json}. */
@Command(name = "desire", description = "Desire instances of a process (create a desired LRP).",
        footer = { "", "Examples:", "  drover desire web -i 3 -p 8080 --check tcp -- sh -c 'exec python3 -m http.server $PORT'",
                "  drover desire -f lrp.json" })
public final class DesireCommand implements Callable<Integer> {

    private static final List<String> DEFINITION_OPTIONS = List.of("--instances", "--memory-mb", "--disk-mb",
            "--port", "--env", "--check", "--domain", "--rootfs", "--start-timeout");

    private final Session session;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "the process_guid")
    String name;

    @Parameters(index = "1..*", paramLabel = "CMD", description = "the command and its arguments, after --")
    List<String> command = new ArrayList<>();

    @Option(names = { "-f", "--file" }, paramLabel = "FILE", description = "the whole desired LRP as JSON")
    Path file;

    @Option(names = { "-i", "--instances" }, defaultValue = "1", description = "instances (default 1)")
    int instances;

    @Option(names = { "-m", "--memory-mb" }, defaultValue = "128", description = "memory per instance, MB (default 128)")
    int memoryMb;

    @Option(names = "--disk-mb", defaultValue = "256", description = "disk per instance, MB (default 256)")
    int diskMb;

    @Option(names = { "-p", "--port" }, paramLabel = "PORT", description = "a container port (repeatable); "
            + "the process listens on $PORT")
    List<Integer> ports = new ArrayList<>();

    @Option(names = { "-e", "--env" }, paramLabel = "NAME=VALUE", description = "an environment variable (repeatable)")
    List<String> env = new ArrayList<>();

    @Option(names = "--check", paramLabel = "tcp|http:/PATH|none", description = "health check on the first port")
    String check;

    @Option(names = { "-d", "--domain" }, defaultValue = "default", description = "domain (default: default)")
    String domain;

    @Option(names = "--rootfs", defaultValue = "preloaded:host", description = "rootfs (default preloaded:host)")
    String rootfs;

    @Option(names = "--start-timeout", defaultValue = "0", paramLabel = "SECONDS",
            description = "crash if not healthy within this many seconds (0: none)")
    int startTimeout;

    public DesireCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        ObjectNode body = file == null ? fromFlags() : fromFile();
        String guid = body.path("process_guid").asString();
        JsonNode created = session.receptor().call("POST", "/v1/desired_lrps", body.toString());
        Output output = session.output();
        if (output.json()) {
            output.json(created == null ? body : created);
        } else {
            output.line("desired " + guid + ": " + body.path("instances").asInt() + " instance(s) in domain "
                    + body.path("domain").asString() + " (drover status " + guid + ")");
        }
        return 0;
    }

    private ObjectNode fromFlags() {
        if (name == null) {
            throw new UsageException("give the NAME to desire, or -f lrp.json");
        }
        return new DesireRequest(name, instances, memoryMb, diskMb, ports, env, check, domain, rootfs, startTimeout,
                command).toJson();
    }

    private ObjectNode fromFile() {
        List<String> given = DEFINITION_OPTIONS.stream().filter(o -> spec.commandLine().getParseResult()
                .hasMatchedOption(o)).toList();
        if (!given.isEmpty() || !command.isEmpty()) {
            throw new UsageException("-f takes the whole definition from the file; drop "
                    + (given.isEmpty() ? "the command" : String.join(", ", given)));
        }
        JsonNode read;
        try {
            read = Json.parse(Files.readString(session.workingDirectory().resolve(file)));
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new UsageException(file + " is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (!(read instanceof ObjectNode lrp)) {
            throw new UsageException(file + " must hold one JSON object (a desired LRP)");
        }
        String inFile = lrp.path("process_guid").asString(null);
        if (name != null && inFile != null && !name.equals(inFile)) {
            throw new UsageException("NAME " + name + " differs from the file's process_guid " + inFile);
        }
        if (name != null) {
            lrp.put("process_guid", name);
        }
        return lrp;
    }
}
