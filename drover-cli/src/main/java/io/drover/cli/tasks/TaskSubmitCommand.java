package io.drover.cli.tasks;

import io.drover.cli.api.ApiException;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code drover task submit GUID [flags] -- CMD ARGS...} or {@code drover task submit [GUID] -f task.json}, and with
 * {@code --wait} until it completes: exit 0 when it succeeded, 1 ({@code TaskFailed}) when it failed.
 */
@Command(name = "submit", description = "Submit a task: run a command once, on some cell.",
        footer = { "", "Examples:",
                "  drover task submit answer --result-file out.txt --wait -- sh -c 'echo 42 > out.txt'",
                "  drover task submit -f task.json" })
final class TaskSubmitCommand implements Callable<Integer> {

    private static final List<String> DEFINITION_OPTIONS = List.of("--memory-mb", "--disk-mb", "--env", "--domain",
            "--rootfs", "--result-file");
    private static final Duration POLL = Duration.ofMillis(500);

    private final Session session;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "GUID", description = "the task_guid")
    String guid;

    @Parameters(index = "1..*", paramLabel = "CMD", description = "the command and its arguments, after --")
    List<String> command = new ArrayList<>();

    @Option(names = { "-f", "--file" }, paramLabel = "FILE", description = "the whole task as JSON")
    Path file;

    @Option(names = { "-d", "--domain" }, defaultValue = "default", description = "domain (default: default)")
    String domain;

    @Option(names = { "-m", "--memory-mb" }, defaultValue = "128", description = "memory, MB (default 128)")
    int memoryMb;

    @Option(names = "--disk-mb", defaultValue = "256", description = "disk, MB (default 256)")
    int diskMb;

    @Option(names = { "-e", "--env" }, paramLabel = "NAME=VALUE", description = "an environment variable (repeatable)")
    List<String> env = new ArrayList<>();

    @Option(names = "--rootfs", defaultValue = "preloaded:host", description = "rootfs (default preloaded:host)")
    String rootfs;

    @Option(names = "--result-file", paramLabel = "PATH",
            description = "a file the command writes; its first 10 KiB become the task's result")
    String resultFile;

    @Option(names = "--wait", description = "wait until the task completes; exit 1 when it failed")
    boolean await;

    @Option(names = "--timeout", defaultValue = "10m", paramLabel = "DURATION",
            description = "how long --wait waits (default 10m)")
    String timeout;

    TaskSubmitCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws InterruptedException {
        Duration limit = Durations.parse(timeout, "--timeout");
        ObjectNode body = file == null ? fromFlags() : fromFile();
        String task = body.path("task_guid").asString();
        JsonNode submitted = session.receptor().call("POST", "/v1/tasks", body.toString());
        Output output = session.output();
        if (!await) {
            if (output.json()) {
                output.json(submitted);
            } else {
                output.line("submitted " + task + " in domain " + body.path("domain").asString()
                        + " (drover task get " + task + ")");
            }
            return 0;
        }
        JsonNode done = awaitCompletion(task, submitted, limit);
        if (output.json()) {
            output.json(done);
        } else {
            output.line(task + " " + done.path("state").asString() + ": " + TaskView.outcome(done));
        }
        if (done.path("failed").asBoolean()) {
            throw new ApiException("TaskFailed", task + " failed: " + done.path("failure_reason").asString("?"), 0);
        }
        return 0;
    }

    private JsonNode awaitCompletion(String task, JsonNode submitted, Duration limit) throws InterruptedException {
        Instant deadline = session.clock().instant().plus(limit);
        JsonNode now = submitted;
        while (now == null || !List.of("COMPLETED", "RESOLVING").contains(now.path("state").asString())) {
            if (!session.clock().instant().isBefore(deadline)) {
                throw new ApiException("TaskTimeout", task + " is still " + now.path("state").asString() + " after "
                        + timeout + " (it goes on; drover task get " + task + ")", 0);
            }
            Thread.sleep(POLL.toMillis());
            now = session.receptor().get(TaskCommand.path(task));
        }
        return now;
    }

    private ObjectNode fromFlags() {
        if (guid == null) {
            throw new UsageException("give the GUID of the task, or -f task.json");
        }
        return new TaskRequest(guid, domain, rootfs, memoryMb, diskMb, env, resultFile, command).toJson();
    }

    private ObjectNode fromFile() {
        List<String> given = DEFINITION_OPTIONS.stream().filter(o -> spec.commandLine().getParseResult()
                .hasMatchedOption(o)).toList();
        if (!given.isEmpty() || !command.isEmpty()) {
            throw new UsageException("-f takes the whole task from the file; drop "
                    + (given.isEmpty() ? "the command" : String.join(", ", given)));
        }
        JsonNode read;
        try {
            read = Json.parse(Files.readString(session.workingDirectory().resolve(file)));
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new UsageException(file + " is not JSON: " + e.getMessage());
        }
        if (!(read instanceof ObjectNode task)) {
            throw new UsageException(file + " must hold one JSON object (a task)");
        }
        String inFile = task.path("task_guid").asString(null);
        if (guid != null && inFile != null && !guid.equals(inFile)) {
            throw new UsageException("GUID " + guid + " differs from the file's task_guid " + inFile);
        }
        if (guid != null) {
            task.put("task_guid", guid);
        }
        return task;
    }
}
