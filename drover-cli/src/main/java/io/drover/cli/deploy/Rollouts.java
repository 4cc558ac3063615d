package io.drover.cli.deploy;

import io.drover.cli.api.ApiException;
import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The deployments of one LRP through the API: the latest, the one under way, and waiting for one to settle. */
final class Rollouts {

    private static final Duration POLL = Duration.ofSeconds(1);

    private final Session session;
    private final String name;

    Rollouts(Session session, String name) {
        this.session = session;
        this.name = name;
    }

    String path() {
        return "/v1/desired_lrps/" + Receptor.encode(name) + "/deployments";
    }

    /** The newest deployment; {@code NoDeployment} (exit 1) when the LRP has none. */
    JsonNode latest() {
        List<JsonNode> all = session.receptor().list(path());
        if (all.isEmpty()) {
            throw new ApiException("NoDeployment", name + " has had no deployment (drover deploy " + name + ")", 0);
        }
        return all.get(0);
    }

    /** The deployment under way; {@code NoActiveDeployment} (exit 1) when none is. */
    JsonNode active() {
        JsonNode latest = latest();
        if (!DeployRequest.active(latest)) {
            throw new ApiException("NoActiveDeployment", name + " has no deployment under way; the latest is "
                    + latest.path("state").asString() + " (drover rollout status " + name + ")", 0);
        }
        return latest;
    }

    /**
     * Prints a line whenever the deployment changes, until it needs nobody (SUCCESSFUL: 0) or somebody (PAUSED,
     * WAITING_FOR_PROMOTION: 0, the line says what to do), or ended otherwise (FAILED, REVERTED, CANCELLED: exit 1).
     */
    int follow(JsonNode started, Duration limit) throws InterruptedException {
        Output output = session.output();
        Instant deadline = session.clock().instant().plus(limit);
        String id = started.path("id").asString();
        JsonNode now = started;
        String shown = null;
        while (true) {
            String line = RolloutView.line(name, now, session.clock().instant(), output);
            if (!line.equals(shown)) {
                if (output.json()) {
                    output.json(now);
                } else {
                    output.line(line);
                }
                shown = line;
            }
            String state = now.path("state").asString();
            if (!state.equals("RUNNING")) {
                if (List.of("FAILED", "REVERTED", "CANCELLED").contains(state)) {
                    throw new ApiException("RolloutFailed", name + " deployment v" + now.path("to_version").asInt()
                            + " " + state + (now.path("failure_reason").asString("").isEmpty() ? ""
                                    : ": " + now.path("failure_reason").asString()), 0);
                }
                return 0;
            }
            if (!session.clock().instant().isBefore(deadline)) {
                throw new ApiException("RolloutTimeout", name + " is still rolling out after " + limit.toSeconds()
                        + " s (it goes on; drover rollout status " + name + ")", 0);
            }
            Thread.sleep(POLL.toMillis());
            now = session.receptor().get(path() + "/" + Receptor.encode(id));
        }
    }
}
