package io.drover.cli.tasks;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.output.WatchOptions;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code drover tasks [--state S] [--domain D] [--watch]}: the tasks, by task_guid. */
@Command(name = "tasks", description = "List tasks (run-once work): state, domain, cell, outcome.")
public final class TasksCommand implements Callable<Integer> {

    private final Session session;

    @Option(names = { "-s", "--state" }, paramLabel = "STATE",
            description = "only tasks in this state: PENDING, RUNNING, COMPLETED or RESOLVING")
    String state;

    @Option(names = { "-d", "--domain" }, paramLabel = "DOMAIN", description = "only tasks of this domain")
    String domain;

    @Mixin
    WatchOptions watching;

    public TasksCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        String wanted = state == null ? null : state.toUpperCase(Locale.ROOT);
        if (wanted != null && !TaskView.STATES.contains(wanted)) {
            throw new UsageException("--state takes PENDING, RUNNING, COMPLETED or RESOLVING, not '" + state + "'");
        }
        String query = (wanted == null ? "" : "&state=" + wanted)
                + (domain == null ? "" : "&domain=" + Receptor.encode(domain));
        String path = "/v1/tasks" + (query.isEmpty() ? "" : "?" + query.substring(1));
        return watching.run(session.output(), () -> frame(path));
    }

    private void frame(String path) {
        List<JsonNode> tasks = session.receptor().list(path);
        Output output = session.output();
        if (output.json()) {
            tasks.forEach(output::json);
        } else if (tasks.isEmpty()) {
            output.line("no tasks" + (state == null && domain == null ? "" : " match"));
        } else {
            output.table(TaskView.table(tasks, session.clock().instant(), output));
        }
    }
}
