package io.drover.cli.tasks;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ago;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.output.Table;
import java.time.Instant;
import java.util.List;

/** Tasks for people: a table of many, the fields of one, and what came of each in a few words. Pure. */
final class TaskView {

    static final List<String> STATES = List.of("PENDING", "RUNNING", "COMPLETED", "RESOLVING");

    private TaskView() {
    }

    static Table table(List<JsonNode> tasks, Instant now, Output output) {
        Table table = new Table("TASK", "STATE", "DOMAIN", "CELL", "OUTCOME", "UPDATED");
        for (JsonNode task : tasks) {
            table.row(task.path("task_guid").asString(), state(task, output), task.path("domain").asString(),
                    task.path("cell_id").asString("-"), outcome(task), Ago.of(task.path("updated_at"), now));
        }
        return table;
    }

    /** One task, a field a line. */
    static List<String> fields(JsonNode task, Instant now, Output output) {
        Table table = new Table("FIELD", "VALUE");
        table.row("task", task.path("task_guid").asString());
        table.row("state", state(task, output));
        table.row("outcome", outcome(task).isEmpty() ? "-" : outcome(task));
        table.row("domain", task.path("domain").asString());
        table.row("cell", task.path("cell_id").asString("-"));
        table.row("command", command(task.path("action")));
        table.row("memory", task.path("memory_mb").asInt() + " MB");
        table.row("created", Ago.of(task.path("created_at"), now));
        table.row("updated", Ago.of(task.path("updated_at"), now));
        if (task.hasNonNull("completion_callback_url")) {
            table.row("callback", task.path("completion_callback_url").asString());
        }
        return table.lines().subList(1, table.lines().size());
    }

    /**
     * What came of it: "ok: 42" (the first line of its result), "failed: why", or why a PENDING task waits; empty
     * while it runs.
     */
    static String outcome(JsonNode task) {
        String state = task.path("state").asString();
        if (state.equals("COMPLETED") || state.equals("RESOLVING")) {
            return task.path("failed").asBoolean() ? "failed: " + task.path("failure_reason").asString("?")
                    : "ok" + (task.path("result").asString().isBlank() ? "" : ": " + firstLine(task.path("result")
                            .asString()));
        }
        String waiting = task.path("placement_error").asString("");
        return state.equals("PENDING") && !waiting.isEmpty() ? "waiting: " + waiting : "";
    }

    private static String state(JsonNode task, Output output) {
        String state = task.path("state").asString();
        Ansi color = task.path("failed").asBoolean() ? Ansi.RED : switch (state) {
            case "COMPLETED", "RESOLVING" -> Ansi.GREEN;
            case "RUNNING" -> Ansi.CYAN;
            default -> Ansi.YELLOW;
        };
        return output.paint(color, state);
    }

    /** The command of a run action, or the kind of a composed one. */
    static String command(JsonNode action) {
        JsonNode run = action.path("run");
        if (run.isMissingNode()) {
            return action.properties().iterator().hasNext() ? action.properties().iterator().next().getKey()
                    + " action" : "-";
        }
        StringBuilder text = new StringBuilder(run.path("path").asString());
        run.path("args").forEach(arg -> text.append(' ').append(arg.asString()));
        return text.length() > 60 ? text.substring(0, 57) + "..." : text.toString();
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 40 ? line.substring(0, 37) + "..." : line;
    }
}
