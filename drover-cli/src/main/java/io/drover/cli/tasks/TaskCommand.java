package io.drover.cli.tasks;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.logs.LogPrinter;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code drover task submit|get|cancel|delete|logs}: one task. */
@Command(name = "task", description = "Submit, show, cancel, delete a task, or show its log.")
public final class TaskCommand implements Runnable {

    @Spec
    CommandSpec spec;

    private TaskCommand() {
    }

    /** The command with its subcommands (each needs the session, so picocli cannot make them). */
    public static CommandLine commandLine(Session session) {
        return new CommandLine(new TaskCommand()).addSubcommand(new TaskSubmitCommand(session))
                .addSubcommand(new Get(session)).addSubcommand(new Cancel(session))
                .addSubcommand(new Delete(session)).addSubcommand(new Logs(session));
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "which task command? submit, get, cancel, delete or logs");
    }

    static String path(String guid) {
        return "/v1/tasks/" + Receptor.encode(guid);
    }

    @Command(name = "get", description = "Show one task: state, outcome, cell, command.")
    static final class Get implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "GUID")
        String guid;

        Get(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            JsonNode task = session.receptor().get(path(guid));
            Output output = session.output();
            if (output.json()) {
                output.json(task);
            } else {
                TaskView.fields(task, session.clock().instant(), output).forEach(output::line);
            }
            return 0;
        }
    }

    @Command(name = "cancel", description = "Cancel a PENDING or RUNNING task (it completes, failed: cancelled).")
    static final class Cancel implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "GUID")
        String guid;

        Cancel(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            JsonNode task = session.receptor().call("POST", path(guid) + "/cancel", null);
            Output output = session.output();
            if (output.json()) {
                output.json(task);
            } else {
                output.line("cancelled " + guid + " (" + TaskView.outcome(task) + ")");
            }
            return 0;
        }
    }

    @Command(name = "delete", description = "Delete (resolve) a COMPLETED task.")
    static final class Delete implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "GUID")
        String guid;

        Delete(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            session.receptor().call("DELETE", path(guid), null);
            Output output = session.output();
            if (output.json()) {
                output.json(Json.object().put("task_guid", guid).put("deleted", true));
            } else {
                output.line("deleted " + guid);
            }
            return 0;
        }
    }

    @Command(name = "logs", description = "Show what a task printed, and the rep's lines about it (while it runs, "
            + "and for an hour after).")
    static final class Logs implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "GUID")
        String guid;

        @Option(names = { "-f", "--follow" }, description = "keep printing new lines until the task ends")
        boolean follow;

        @Option(names = { "-n", "--tail" }, defaultValue = "100", paramLabel = "N",
                description = "lines from its past first (default 100)")
        int tail;

        @Option(names = "--stream", paramLabel = "stdout|stderr|rep", description = "only this source")
        String stream;

        Logs(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() {
            String query = LogPrinter.query(tail, follow, stream);
            LogPrinter printer = new LogPrinter(session.output(), "task_guid", guid, false);
            LogPrinter.read(session.receptor().stream(path(guid) + "/logs" + query, "text/plain"), 0,
                    printer::print);
            return 0;
        }
    }
}
