package io.drover.receptor.deployment;

import io.drover.model.deployment.Amount;
import io.drover.model.deployment.Strategy;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.Deployable;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.RunAction;
import io.drover.receptor.validation.ActionJson;
import io.drover.receptor.validation.FieldErrors;
import io.drover.receptor.validation.JsonFields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * A deployment request (SPEC 14) parsed from a JSON tree and validated field by field, pure: the definition fields it
 * changes (any subset, applied over the current definition) or a {@code rollback_to}, and the strategy fields at the
 * top level of the same body. Anything wrong is one InvalidDeployment naming every bad field.
 */
final class DeploymentRequests {

    static final String INVALID = "InvalidDeployment";
    static final Set<String> DEFINITION_FIELDS = Set.of("action", "monitor", "check_definition", "start_timeout", "env",
            "ports", "memory_mb", "disk_mb", "max_pids", "cpu_weight", "placement_tags");
    static final Set<String> STRATEGY_FIELDS = Set.of("max_surge", "max_unavailable", "min_healthy_time",
            "progress_deadline", "auto_revert", "canary");
    private static final int MAX_SECONDS = 7 * 24 * 3600;

    private DeploymentRequests() {
    }

    /** What to deploy: a change of the definition, or a version to go back to, and how. */
    record Request(Function<DesiredLrpSnapshot, Deployable> change, Integer rollbackTo, Strategy strategy) {
    }

    static Request parse(JsonNode body) {
        List<String> errors = new ArrayList<>();
        JsonFields f = new JsonFields(body, "", errors);
        Set<String> known = new java.util.HashSet<>(DEFINITION_FIELDS);
        known.addAll(STRATEGY_FIELDS);
        known.add("rollback_to");
        f.rejectUnknown(known);
        boolean changes = DEFINITION_FIELDS.stream().anyMatch(f::has);
        Integer rollbackTo = f.integer("rollback_to", false, 1, Integer.MAX_VALUE);
        if (changes == f.has("rollback_to")) {
            errors.add(changes ? "rollback_to (not with definition fields)"
                    : "one of " + new java.util.TreeSet<>(DEFINITION_FIELDS) + " or rollback_to");
        }
        Function<DesiredLrpSnapshot, Deployable> change = changes ? change(f) : null;
        Strategy strategy = strategy(f, errors);
        FieldErrors.throwIfAny(INVALID, errors);
        return new Request(change, rollbackTo, strategy);
    }

    /** Parses the given definition fields now; applies them over the current definition at deployment time. */
    private static Function<DesiredLrpSnapshot, Deployable> change(JsonFields f) {
        Action action = ActionJson.action(f, "action", false);
        RunAction monitor = ActionJson.run(f, "monitor", false);
        CheckDefinition checks = ActionJson.checks(f, "check_definition");
        if (monitor != null && checks != null) {
            f.invalid("check_definition");
        }
        Integer startTimeout = f.integer("start_timeout", false, 0, Integer.MAX_VALUE);
        List<EnvVar> env = f.has("env") ? ActionJson.env(f, "env") : null;
        List<Integer> ports = f.has("ports") ? f.integers("ports", 1, 65_535) : null;
        Integer memory = f.integer("memory_mb", false, 0, Integer.MAX_VALUE);
        Integer disk = f.integer("disk_mb", false, 0, Integer.MAX_VALUE);
        Integer maxPids = f.integer("max_pids", false, 0, Integer.MAX_VALUE);
        Integer cpuWeight = f.integer("cpu_weight", false, 0, 100);
        List<String> tags = f.has("placement_tags") ? f.strings("placement_tags", 256, s -> !s.isEmpty()) : null;
        return current -> {
            Deployable d = Deployable.of(current.definition());
            boolean newCheck = monitor != null || checks != null;
            return new Deployable(action != null ? action : d.action(),
                    newCheck ? monitor : d.monitor(), newCheck ? checks : d.checkDefinition(),
                    startTimeout != null ? startTimeout : d.startTimeout(), env != null ? env : d.env(),
                    ports != null ? ports : d.ports(), memory != null ? memory : d.memoryMb(),
                    disk != null ? disk : d.diskMb(), maxPids != null ? maxPids : d.maxPids(),
                    cpuWeight != null ? cpuWeight : d.cpuWeight(), tags != null ? tags : d.placementTags());
        };
    }

    private static Strategy strategy(JsonFields f, List<String> errors) {
        Strategy d = Strategy.DEFAULT;
        Amount surge = amount(f, "max_surge", d.maxSurge());
        Amount unavailable = amount(f, "max_unavailable", d.maxUnavailable());
        int minHealthy = f.integer("min_healthy_time", 0, MAX_SECONDS, (int) d.minHealthyTime().toSeconds());
        int deadline = f.integer("progress_deadline", 1, MAX_SECONDS, (int) d.progressDeadline().toSeconds());
        boolean autoRevert = d.autoRevert();
        if (f.has("auto_revert")) {
            JsonNode v = f.get("auto_revert");
            if (v.isBoolean()) {
                autoRevert = v.booleanValue();
            } else {
                f.invalid("auto_revert");
            }
        }
        int canary = f.integer("canary", 0, 10_000, 0);
        if (!errors.isEmpty()) {
            return d;
        }
        return new Strategy(surge, unavailable, Duration.ofSeconds(minHealthy), Duration.ofSeconds(deadline),
                autoRevert, canary);
    }

    /** A count (a JSON integer or a string of digits) or a share ({@code "25%"}). */
    private static Amount amount(JsonFields f, String name, Amount absent) {
        JsonNode v = f.get(name);
        if (v == null) {
            return absent;
        }
        try {
            if (v.isIntegralNumber() && v.canConvertToInt()) {
                return new Amount(v.intValue(), false);
            }
            if (v.isString()) {
                return Amount.parse(v.stringValue());
            }
        } catch (IllegalArgumentException e) {
            // named below
        }
        f.invalid(name);
        return absent;
    }
}
