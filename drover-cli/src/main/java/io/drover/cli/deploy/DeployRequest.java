package io.drover.cli.deploy;

import io.drover.cli.json.ArrayNode;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.lrp.DefinitionFlags;
import io.drover.cli.session.UsageException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The flags of {@code drover deploy} as the body of {@code POST /v1/desired_lrps/{guid}/deployments}: only what the
 * flags change (a given {@code base}, the {@code -f} file, is kept and overridden), then the strategy at the top level.
 * Pure.
 */
record DeployRequest(Integer memoryMb, Integer diskMb, List<Integer> ports, List<String> env, String check,
        Integer startTimeout, List<String> command, Strategy strategy) {

    private static final Pattern COUNT_OR_SHARE = Pattern.compile("\\d{1,9}%?");

    /** SPEC 14's strategy fields; null: the API's default. */
    record Strategy(String maxSurge, String maxUnavailable, Integer minHealthyTime, Integer progressDeadline,
            Integer canary, boolean noAutoRevert) {
    }

    ObjectNode toJson(ObjectNode base) {
        ObjectNode body = base;
        if (!command.isEmpty()) {
            body.set("action", DefinitionFlags.action(command));
        }
        if (memoryMb != null) {
            body.put("memory_mb", memoryMb);
        }
        if (diskMb != null) {
            body.put("disk_mb", diskMb);
        }
        if (!ports.isEmpty()) {
            ArrayNode list = body.putArray("ports");
            ports.forEach(list::add);
        }
        if (!env.isEmpty()) {
            body.set("env", DefinitionFlags.env(env));
        }
        if (check != null) {
            body.set("check_definition", DefinitionFlags.checkDefinition(check, ports));
        }
        if (startTimeout != null) {
            body.put("start_timeout", startTimeout);
        }
        if (!changesSomething(body)) {
            throw new UsageException("what changes? give the new command after --, or --memory-mb, --disk-mb, "
                    + "--port, --env, --check, --start-timeout, or the change as JSON with -f change.json");
        }
        strategy(body);
        return body;
    }

    private void strategy(ObjectNode body) {
        countOrShare(body, "max_surge", "--max-surge", strategy.maxSurge());
        countOrShare(body, "max_unavailable", "--max-unavailable", strategy.maxUnavailable());
        seconds(body, "min_healthy_time", strategy.minHealthyTime());
        seconds(body, "progress_deadline", strategy.progressDeadline());
        seconds(body, "canary", strategy.canary());
        if (strategy.noAutoRevert()) {
            body.put("auto_revert", false);
        }
    }

    private static boolean changesSomething(ObjectNode body) {
        for (var field : body.properties()) {
            if (!List.of("max_surge", "max_unavailable", "min_healthy_time", "progress_deadline", "auto_revert",
                    "canary").contains(field.getKey())) {
                return true;
            }
        }
        return false;
    }

    /** "2" or "25%": a count goes as a number, a share as text, as the API reads them. */
    private static void countOrShare(ObjectNode body, String field, String option, String value) {
        if (value == null) {
            return;
        }
        if (!COUNT_OR_SHARE.matcher(value).matches()) {
            throw new UsageException(option + " takes a count (2) or a share of the instances (25%), not '" + value
                    + "'");
        }
        if (value.endsWith("%")) {
            body.put(field, value);
        } else {
            body.put(field, Integer.parseInt(value));
        }
    }

    private static void seconds(ObjectNode body, String field, Integer value) {
        if (value != null) {
            if (value < 0) {
                throw new UsageException("--" + field.replace('_', '-') + " takes 0 or more, not " + value);
            }
            body.put(field, value);
        }
    }

    /** Whether a deployment is still under way (not SUCCESSFUL, FAILED, REVERTED or CANCELLED). */
    static boolean active(JsonNode deployment) {
        return List.of("RUNNING", "PAUSED", "WAITING_FOR_PROMOTION").contains(deployment.path("state").asString());
    }
}
