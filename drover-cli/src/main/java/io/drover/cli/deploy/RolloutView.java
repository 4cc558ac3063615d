package io.drover.cli.deploy;

import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Ago;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import java.time.Instant;

/** A deployment in one line for people: versions, state, how far, who started it and when, why it failed. Pure. */
final class RolloutView {

    private RolloutView() {
    }

    static String line(String name, JsonNode d, Instant now, Output output) {
        JsonNode counts = d.path("counts");
        String state = d.path("state").asString();
        Ansi color = switch (state) {
            case "SUCCESSFUL" -> Ansi.GREEN;
            case "RUNNING" -> Ansi.CYAN;
            case "FAILED", "REVERTED", "CANCELLED" -> Ansi.RED;
            default -> Ansi.YELLOW;
        };
        StringBuilder line = new StringBuilder(name).append(": v").append(d.path("from_version").asInt())
                .append(" -> v").append(d.path("to_version").asInt()).append(' ').append(output.paint(color, state))
                .append(", ").append(counts.path("updated").asInt()).append('/').append(counts.path("desired").asInt())
                .append(" updated, ").append(counts.path("healthy").asInt()).append(" healthy, ")
                .append(counts.path("unhealthy").asInt()).append(" unhealthy; started by ")
                .append(d.path("created_by").asString("?")).append(' ').append(Ago.of(d.path("created_at"), now));
        String why = d.path("failure_reason").asString("");
        if (!why.isEmpty()) {
            line.append(" (").append(why).append(')');
        }
        if (state.equals("WAITING_FOR_PROMOTION")) {
            line.append(" - the canary is up: drover rollout promote ").append(name);
        }
        return line.toString();
    }
}
