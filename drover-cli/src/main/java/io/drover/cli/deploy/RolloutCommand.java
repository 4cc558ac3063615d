package io.drover.cli.deploy;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Durations;
import io.drover.cli.session.Session;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code drover rollout status|pause|resume|promote|cancel|undo NAME}: the deployment of NAME under way. */
@Command(name = "rollout", description = "Follow, pause, resume, promote, cancel or undo the deployment of NAME.")
public final class RolloutCommand implements Runnable {

    @Spec
    CommandSpec spec;

    private RolloutCommand() {
    }

    /** The command with its subcommands (each needs the session, so picocli cannot make them). */
    public static CommandLine commandLine(Session session) {
        CommandLine rollout = new CommandLine(new RolloutCommand()).addSubcommand(new Status(session));
        for (String verb : new String[] { "pause", "resume", "promote", "cancel" }) {
            CommandLine command = new CommandLine(new Verb(session, verb)).setCommandName(verb);
            command.getCommandSpec().usageMessage().description(switch (verb) {
                case "pause" -> "Pause the deployment under way: no instance is replaced until resume.";
                case "resume" -> "Resume a paused deployment.";
                case "promote" -> "Promote a deployment whose canaries are up: the rest are replaced.";
                default -> "Cancel the deployment under way: instances stay as they are, old and new.";
            });
            rollout.addSubcommand(verb, command);
        }
        return rollout.addSubcommand(new Undo(session));
    }

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "which rollout command? status, pause, resume, promote, cancel or undo");
    }

    @Command(name = "status", description = "The latest deployment of NAME; --wait follows it until it is done.")
    static final class Status implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(names = { "-w", "--wait" }, description = "follow until done; exit 1 when it failed")
        boolean await;

        @Option(names = "--timeout", defaultValue = "15m", paramLabel = "DURATION",
                description = "how long --wait follows (default 15m)")
        String timeout;

        Status(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() throws InterruptedException {
            var limit = Durations.parse(timeout, "--timeout");
            Rollouts rollouts = new Rollouts(session, name);
            JsonNode latest = rollouts.latest();
            if (await) {
                return rollouts.follow(latest, limit);
            }
            Output output = session.output();
            if (output.json()) {
                output.json(latest);
            } else {
                output.line(RolloutView.line(name, latest, session.clock().instant(), output));
            }
            return 0;
        }
    }

    /** pause, resume, promote or cancel: the verb on the deployment under way. */
    @Command(name = "verb")
    static final class Verb implements Callable<Integer> {

        private final Session session;
        private final String verb;

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        Verb(Session session, String verb) {
            this.session = session;
            this.verb = verb;
        }

        @Override
        public Integer call() {
            Rollouts rollouts = new Rollouts(session, name);
            JsonNode active = rollouts.active();
            JsonNode after = session.receptor().call("POST", rollouts.path() + "/"
                    + Receptor.encode(active.path("id").asString()) + "/" + verb, null);
            Output output = session.output();
            if (output.json()) {
                output.json(after);
            } else {
                output.line(RolloutView.line(name, after, session.clock().instant(), output));
            }
            return 0;
        }
    }

    @Command(name = "undo", description = "Roll NAME back: to the version before its latest deployment, or "
            + "--to-version N (one of the last 10).")
    static final class Undo implements Callable<Integer> {

        private final Session session;

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(names = "--to-version", paramLabel = "N", description = "the version to go back to")
        Integer version;

        @Option(names = "--wait", description = "follow the rollback until it is done; exit 1 when it fails")
        boolean await;

        Undo(Session session) {
            this.session = session;
        }

        @Override
        public Integer call() throws InterruptedException {
            Rollouts rollouts = new Rollouts(session, name);
            int to = version != null ? version : rollouts.latest().path("from_version").asInt();
            JsonNode started = session.receptor().call("POST", rollouts.path(), Json.object().put("rollback_to", to)
                    .toString());
            if (await) {
                return rollouts.follow(started, Durations.parse("15m", "--timeout"));
            }
            Output output = session.output();
            if (output.json()) {
                output.json(started);
            } else {
                output.line("rolling " + name + " back: v" + started.path("from_version").asInt() + " -> v"
                        + started.path("to_version").asInt() + " (drover rollout status " + name + ")");
            }
            return 0;
        }
    }
}
