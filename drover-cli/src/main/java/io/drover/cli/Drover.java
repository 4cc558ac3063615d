package io.drover.cli;

import io.drover.cli.api.ApiException;
import io.drover.cli.cells.CellsCommand;
import io.drover.cli.cells.DrainCommand;
import io.drover.cli.cells.UndrainCommand;
import io.drover.cli.cells.VisualizeCommand;
import io.drover.cli.deploy.DeployCommand;
import io.drover.cli.deploy.RolloutCommand;
import io.drover.cli.domains.DomainsCommand;
import io.drover.cli.routes.RoutesCommand;
import io.drover.cli.events.EventsCommand;
import io.drover.cli.logs.LogsCommand;
import io.drover.cli.lrp.AutoscaleCommand;
import io.drover.cli.lrp.DeleteCommand;
import io.drover.cli.lrp.DesireCommand;
import io.drover.cli.lrp.ListCommand;
import io.drover.cli.lrp.RestartCommand;
import io.drover.cli.lrp.ScaleCommand;
import io.drover.cli.lrp.StatusCommand;
import io.drover.cli.session.ConfigurationException;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import io.drover.cli.tasks.TaskCommand;
import io.drover.cli.tasks.TasksCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code drover}: Drover's command line. Exit codes scripts can trust: 0 ok, 1 the API answered an error (its name and
 * message on stderr) or could not be reached, 2 a usage error (what is wrong, and the command's usage line). Never a
 * stack trace. A new command is one line in {@link #COMMANDS}.
 */
@Command(name = "drover", mixinStandardHelpOptions = true, version = "drover 0.1.0",
        description = "Drover's command line. Talks to the receptor at DROVER_URL (DROVER_USER, DROVER_PASSWORD), or "
                + "to the local cluster's .drover/local/cluster.env.",
        footer = { "", "Exit codes: 0 ok, 1 API error, 2 usage error.", "Run 'drover COMMAND --help' for a command." })
public final class Drover implements Runnable {

    static final int OK = 0;
    static final int API_ERROR = 1;
    static final int USAGE = 2;

    /** Every command, in the order of the help; each made only when it runs (see {@link #wanted}). */
    private static final Map<String, Function<Session, Object>> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("desire", DesireCommand::new);
        COMMANDS.put("scale", ScaleCommand::new);
        COMMANDS.put("list", ListCommand::new);
        COMMANDS.put("status", StatusCommand::new);
        COMMANDS.put("restart", RestartCommand::new);
        COMMANDS.put("delete", DeleteCommand::new);
        COMMANDS.put("cells", CellsCommand::new);
        COMMANDS.put("drain", DrainCommand::new);
        COMMANDS.put("undrain", UndrainCommand::new);
        COMMANDS.put("visualize", VisualizeCommand::new);
        COMMANDS.put("events", EventsCommand::new);
        COMMANDS.put("logs", LogsCommand::new);
        COMMANDS.put("tasks", TasksCommand::new);
        COMMANDS.put("task", TaskCommand::commandLine);
        COMMANDS.put("deploy", DeployCommand::new);
        COMMANDS.put("rollout", RolloutCommand::commandLine);
        COMMANDS.put("domains", DomainsCommand::new);
        COMMANDS.put("autoscale", AutoscaleCommand::new);
        COMMANDS.put("routes", RoutesCommand::new);
    }

    private final Session session;

    @Spec
    CommandSpec spec;

    Drover(Session session) {
        this.session = session;
    }

    /** {@code -o table|json}, accepted before or after the subcommand. */
    @Option(names = { "-o", "--output" }, scope = ScopeType.INHERIT, paramLabel = "table|json",
            description = "table (default, for people) or json (one object per line)")
    void output(Format format) {
        if (format != null) {
            session.format(format.name());
        }
    }

    /** The values of {@code -o}. */
    enum Format {
        table, json
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "which command? (drover --help lists them)");
    }

    public static void main(String[] args) {
        boolean terminal = System.console() != null;
        int exit = run(args, System.getenv(), Path.of(""), System.out, System.err, terminal);
        System.exit(exit);
    }

    /** One run of the CLI, everything it touches given: the in-process tests call this. */
    public static int run(String[] args, Map<String, String> env, Path workingDirectory, PrintStream out,
            PrintStream err, boolean terminal) {
        Session session = new Session(env, workingDirectory, out, err, terminal, Clock.systemUTC());
        return commandLine(session, out, err, args).execute(args);
    }

    static CommandLine commandLine(Session session, PrintStream out, PrintStream err, String... args) {
        CommandLine cli = new CommandLine(new Drover(session));
        String wanted = wanted(args);
        COMMANDS.forEach((name, command) -> {
            if (wanted == null || wanted.equals(name)) {
                cli.addSubcommand(name, command.apply(session));
            }
        });
        if (wanted == null) {
            cli.addSubcommand("completion", new AutoComplete.GenerateCompletion());
            cli.getSubcommands().get("completion").getCommandSpec().usageMessage()
                    .description("Print a bash/zsh completion script: source <(drover completion)");
        }
        cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cli.setParameterExceptionHandler((e, given) -> usage(e.getCommandLine(), e.getMessage(), err));
        cli.setExecutionExceptionHandler((e, command, parsed) -> failed(e, command, err));
        return cli;
    }

    /**
     * The one command {@code args} run, or null when they may need them all (help, completion, an unknown name):
     * picocli reads each command's annotations when it is added, and reading all of them is most of a command's start.
     */
    static String wanted(String... args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-o") || arg.equals("--output")) {
                i++; // its value
            } else if (arg.equals("--") || arg.equals("-h") || arg.equals("--help") || arg.equals("-V")
                    || arg.equals("--version")) {
                return null;
            } else if (!arg.startsWith("-")) {
                return COMMANDS.containsKey(arg) ? arg : null;
            }
        }
        return null;
    }

    private static int failed(Exception e, CommandLine command, PrintStream err) {
        if (e instanceof ApiException api) {
            err.println(api.name() + ": " + api.getMessage());
            return API_ERROR;
        }
        if (e instanceof UsageException) {
            return usage(command, e.getMessage(), err);
        }
        if (e instanceof ConfigurationException) {
            err.println("drover: " + e.getMessage());
            return USAGE;
        }
        err.println("drover: " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        return API_ERROR;
    }

    private static int usage(CommandLine command, String message, PrintStream err) {
        err.println("drover: " + message);
        err.print("Usage: " + command.getHelp().synopsis(0));
        err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for more.");
        err.flush();
        return USAGE;
    }
}
