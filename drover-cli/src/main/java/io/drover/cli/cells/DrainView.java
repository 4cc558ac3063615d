package io.drover.cli.cells;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ago;
import java.time.Instant;

/** A cell in one line, as {@code drover drain} and {@code undrain} print it: its state and, draining, what is left. */
final class DrainView {

    private DrainView() {
    }

    static String line(JsonNode cell, Instant now) {
        String id = cell.path("cell_id").asString();
        String state = cell.path("state").asString();
        JsonNode drain = cell.path("drain");
        String head = id + " " + state + ": ";
        if (state.equals("DRAINED")) {
            return head + "nothing runs there; it takes no work until drover undrain " + id;
        }
        if (state.equals("ACTIVE")) {
            return head + "it takes work";
        }
        if (drain.isNull() || drain.isMissingNode()) {
            return head + "no drain is asked; it takes work once its rep says so, unless the rep is stopping";
        }
        int instances = drain.path("instances_left").asInt();
        int tasks = drain.path("tasks_left").asInt();
        return head + plural(instances, "instance") + " and " + plural(tasks, "task") + " left, deadline "
                + Ago.until(Instant.parse(drain.path("deadline_at").asString()), now) + " (asked by "
                + drain.path("requested_by").asString() + ")";
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
