package io.drover.cli.lrp;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ago;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.output.Table;
import java.time.Instant;
import java.util.List;

/** What {@code drover status} shows for each instance, from the API's actual LRP JSON. Pure. */
final class StatusView {

    static final int COMMAND_WIDTH = 48;

    private StatusView() {
    }

    static Table table(List<JsonNode> actuals, Instant now, Output output) {
        Table table = new Table("INDEX", "STATE", "CELL", "ADDRESS", "SINCE", "CRASHES", "LAST CRASH",
                "PLACEMENT ERROR");
        for (JsonNode a : actuals) {
            table.row(a.path("index").asString(), output.paint(color(a.path("state").asString()), state(a, now)),
                    text(a.path("cell_id")), address(a), Ago.of(Instant.ofEpochMilli(a.path("since").asLong()), now),
                    Integer.toString(a.path("crash_count").asInt()), text(a.path("crash_reason")),
                    text(a.path("placement_error")));
        }
        return table;
    }

    /** The state, and for a crashed instance when it restarts. */
    static String state(JsonNode actual, Instant now) {
        String state = actual.path("state").asString();
        JsonNode next = actual.path("next_restart_at");
        if ("CRASHED".equals(state) && next.isNumber()) {
            return state + " (restart " + Ago.until(Instant.ofEpochMilli(next.asLong()), now) + ")";
        }
        return state;
    }

    /** {@code address:host_port} of the first port, the address alone without ports, "-" when not running. */
    static String address(JsonNode actual) {
        String address = actual.path("address").asString("");
        if (address.isEmpty()) {
            return "-";
        }
        JsonNode ports = actual.path("ports");
        return ports.isArray() && !ports.isEmpty() ? address + ":" + ports.get(0).path("host_port").asInt() : address;
    }

    static Ansi color(String state) {
        return switch (state) {
            case "RUNNING" -> Ansi.GREEN;
            case "CLAIMED" -> Ansi.YELLOW;
            case "CRASHED" -> Ansi.RED;
            default -> Ansi.CYAN;
        };
    }

    /**
     * The autoscaling line of a desired LRP (SPEC 17), null when it has no policy: the policy, then what the autoscaler
     * measured and wants, and its last scale ({@code autoscaling 1-10 at cpu 60%: now cpu 42.3%, wants 3 (scaling
     * up); last 1 -> 3 2m ago}).
     */
    static String autoscaling(JsonNode desired, Instant now) {
        JsonNode policy = desired.path("autoscaling");
        if (!policy.isObject()) {
            return null;
        }
        StringBuilder line = new StringBuilder("autoscaling ").append(policy.path("min_instances").asInt()).append('-')
                .append(policy.path("max_instances").asInt()).append(" at")
                .append(targets(policy.path("target_cpu_percent"), policy.path("target_memory_percent"), "%"));
        JsonNode status = desired.path("autoscaling_status");
        if (!status.isObject()) {
            return line.append(": not evaluated yet").toString();
        }
        String means = targets(status.path("cpu_percent"), status.path("memory_percent"), "%");
        line.append(": now").append(means.isEmpty() ? " no figures" : means).append(", wants ")
                .append(status.path("desired_instances").asInt()).append(" (").append(status.path("condition")
                        .asString()).append(')');
        if (status.path("last_scale_at").isString()) {
            line.append("; last ").append(status.path("last_scale_from").asInt()).append(" -> ")
                    .append(status.path("last_scale_to").asInt()).append(' ')
                    .append(Ago.of(status.path("last_scale_at"), now));
        }
        return line.toString();
    }

    /**
     * The policy in a list's cell (SPEC 17), as {@code kubectl get hpa} puts bounds and targets on one row: {@code 1-10
     * cpu 60%}, or {@code -} without a policy.
     */
    static String autoscalingCell(JsonNode desired) {
        JsonNode policy = desired.path("autoscaling");
        if (!policy.isObject()) {
            return "-";
        }
        return policy.path("min_instances").asInt() + "-" + policy.path("max_instances").asInt()
                + targets(policy.path("target_cpu_percent"), policy.path("target_memory_percent"), "%");
    }

    private static String targets(JsonNode cpu, JsonNode memory, String unit) {
        StringBuilder text = new StringBuilder();
        if (cpu.isNumber()) {
            text.append(" cpu ").append(cpu.asString()).append(unit);
        }
        if (memory.isNumber()) {
            text.append(text.isEmpty() ? "" : ",").append(" memory ").append(memory.asString()).append(unit);
        }
        return text.toString();
    }

    /** The run action as a shell would show it, cut to {@link #COMMAND_WIDTH}. */
    static String command(JsonNode lrp) {
        JsonNode run = lrp.path("action").path("run");
        StringBuilder command = new StringBuilder(run.path("path").asString(""));
        run.path("args").forEach(arg -> {
            String text = arg.asString();
            command.append(' ').append(text.matches("[\\w./:=@%+-]+") ? text : "'" + text.replace("'", "'\\''") + "'");
        });
        return command.length() > COMMAND_WIDTH ? command.substring(0, COMMAND_WIDTH - 3) + "..." : command.toString();
    }

    private static String text(JsonNode node) {
        String text = node.isNull() || node.isMissingNode() ? "" : node.asString("");
        return text.isEmpty() ? "-" : text;
    }
}
