package io.drover.receptor.desiredlrp;

import io.drover.model.json.Json;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.AutoscalingPolicy;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpUpdate;
import io.drover.model.lrp.ModificationTag;
import io.drover.model.lrp.RunAction;
import io.drover.model.route.CfRoutes;
import io.drover.receptor.web.ProcessGuids;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import io.drover.receptor.validation.ActionJson;
import io.drover.receptor.validation.FieldErrors;
import io.drover.receptor.validation.JsonFields;
import io.drover.receptor.validation.Values;
import io.drover.receptor.web.ApiError;
import tools.jackson.databind.JsonNode;

/**
 * The create and update requests of SPEC 5.2, parsed from a JSON tree and validated rule by rule. Pure: the same tree
 * always gives the same definition or the same InvalidLRP naming every bad field (InvalidRequest for the router's
 * routes, SPEC 16).
 */
final class DesiredLrpRequests {

    static final Pattern PROCESS_GUID = ProcessGuids.PATTERN;
    static final int MAX_INSTANCES = 10_000;
    static final int MAX_ANNOTATION_BYTES = 10 * 1024;
    static final int MAX_ROUTES_BYTES = 128 * 1024;
    static final int MAX_ROUTES_DEPTH = 64;
    private static final int MAX_NAME = 256;

    static final Set<String> CREATE_FIELDS = Set.of("process_guid", "domain", "rootfs", "instances", "action",
            "monitor", "check_definition", "start_timeout", "env", "ports", "memory_mb", "disk_mb", "max_pids",
            "cpu_weight", "placement_tags", "routes", "annotation", "log_guid", "metrics_guid", "autoscaling");
    static final Set<String> UPDATE_FIELDS = Set.of("instances", "routes", "annotation", "autoscaling",
            "modification_tag");
    static final Set<String> AUTOSCALING_FIELDS = Set.of("min_instances", "max_instances", "target_cpu_percent",
            "target_memory_percent", "scale_up_delay", "scale_down_delay");
    /** A CPU target is of one core: a process of many threads may aim above 100 %. */
    static final int MAX_CPU_TARGET = 1_000;
    static final int MAX_DELAY_SECONDS = 86_400;

    private DesiredLrpRequests() {
    }

    /** A validated create request, or InvalidLRP naming every bad field. */
    static DesiredLrpDefinition create(JsonNode body) {
        List<String> errors = new ArrayList<>();
        JsonFields f = new JsonFields(body, "", errors);
        f.rejectUnknown(CREATE_FIELDS);
        String processGuid = f.string("process_guid", true, 128, s -> PROCESS_GUID.matcher(s).matches());
        String domain = f.string("domain", true, MAX_NAME, s -> !s.isBlank());
        String rootfs = f.string("rootfs", true, 1024, Values::isUriWithScheme);
        Integer instances = f.integer("instances", true, 0, MAX_INSTANCES);
        Action action = ActionJson.action(f, "action", true);
        RunAction monitor = monitor(f);
        CheckDefinition checks = ActionJson.checks(f, "check_definition");
        if (monitor != null && checks != null) {
            f.invalid("check_definition");
        }
        int memoryMb = f.integer("memory_mb", 0, Integer.MAX_VALUE, 0);
        AutoscalingPolicy autoscaling = autoscaling(f);
        if (autoscaling != null && instances != null && !autoscaling.admits(instances)) {
            f.invalid("instances");
        }
        if (autoscaling != null && autoscaling.targetMemoryPercent() != null && memoryMb == 0) {
            f.invalid("autoscaling.target_memory_percent"); // a share of no limit: never a figure to scale on
        }
        DesiredLrpDefinition definition = new DesiredLrpDefinition(processGuid, domain, rootfs,
                instances == null ? 0 : instances, action, monitor, checks,
                f.integer("start_timeout", 0, Integer.MAX_VALUE, 0), ActionJson.env(f, "env"),
                f.integers("ports", 1, 65_535), memoryMb,
                f.integer("disk_mb", 0, Integer.MAX_VALUE, 0), f.integer("max_pids", 0, Integer.MAX_VALUE, 0),
                f.integer("cpu_weight", 0, 100, 0), f.strings("placement_tags", MAX_NAME, s -> !s.isEmpty()),
                routes(f), annotation(f), f.string("log_guid", false, MAX_NAME, s -> true),
                f.string("metrics_guid", false, MAX_NAME, s -> true), autoscaling);
        FieldErrors.throwIfAny(ApiError.INVALID_LRP, errors);
        checkRoutes(definition.routes(), definition.ports());
        return definition;
    }

    /**
     * The router's routes in a routes document (SPEC 16: {@code cf-router} hostnames are DNS names, its port one of the
     * LRP's {@code ports}), or InvalidRequest naming every bad field; other keys stay opaque.
     */
    static void checkRoutes(String routesJson, List<Integer> ports) {
        if (routesJson != null) {
            FieldErrors.throwIfAny(ApiError.INVALID_REQUEST, CfRoutes.invalidFields(Json.tree(routesJson), ports));
        }
    }

    /**
     * A validated update: only instances, routes, annotation and the autoscaling policy ({@code null} removes it),
     * plus an optional modification_tag.
     */
    static Update update(JsonNode body) {
        List<String> errors = new ArrayList<>();
        JsonFields f = new JsonFields(body, "", errors);
        f.rejectUnknown(UPDATE_FIELDS);
        JsonNode given = body.get("autoscaling");
        AutoscalingPolicy policy = autoscaling(f);
        Optional<AutoscalingPolicy> autoscaling = given == null ? null
                : given.isNull() ? Optional.empty() : Optional.ofNullable(policy);
        DesiredLrpUpdate update = new DesiredLrpUpdate(f.integer("instances", false, 0, MAX_INSTANCES), routes(f),
                annotation(f), autoscaling);
        ModificationTag tag = modificationTag(f);
        FieldErrors.throwIfAny(ApiError.INVALID_LRP, errors);
        return new Update(update, tag);
    }

    /** An update and the modification tag the body carried, if any. */
    record Update(DesiredLrpUpdate change, ModificationTag modificationTag) {
    }

    /**
     * The autoscaling policy (SPEC 17), or null when absent (or JSON null) or invalid. Every bad field is named: a
     * range with min above max names both, a policy with no target both targets.
     */
    static AutoscalingPolicy autoscaling(JsonFields f) {
        JsonFields a = f.object("autoscaling", false);
        if (a == null) {
            return null;
        }
        a.rejectUnknown(AUTOSCALING_FIELDS);
        Integer min = a.integer("min_instances", false, 1, MAX_INSTANCES);
        Integer max = a.integer("max_instances", true, 1, MAX_INSTANCES);
        Integer cpu = a.integer("target_cpu_percent", false, 1, MAX_CPU_TARGET);
        Integer memory = a.integer("target_memory_percent", false, 1, 100);
        Integer up = a.integer("scale_up_delay", false, 0, MAX_DELAY_SECONDS);
        Integer down = a.integer("scale_down_delay", false, 0, MAX_DELAY_SECONDS);
        boolean valid = (min != null || !a.has("min_instances")) && max != null && (cpu != null || memory != null)
                && (up != null || !a.has("scale_up_delay")) && (down != null || !a.has("scale_down_delay"));
        int lowest = min == null ? 1 : min;
        if (max != null && lowest > max) {
            a.invalid("min_instances");
            a.invalid("max_instances");
            valid = false;
        }
        if (!a.has("target_cpu_percent") && !a.has("target_memory_percent")) {
            a.invalid("target_cpu_percent");
            a.invalid("target_memory_percent");
        }
        return valid ? new AutoscalingPolicy(lowest, max, cpu, memory, up == null ? 0 : up,
                down == null ? AutoscalingPolicy.DEFAULT_SCALE_DOWN_DELAY : down) : null;
    }

    private static RunAction monitor(JsonFields f) {
        return ActionJson.run(f, "monitor", false);
    }

    private static String annotation(JsonFields f) {
        return f.string("annotation", false, MAX_ANNOTATION_BYTES, s -> true);
    }

    /**
     * Opaque JSON object, stored as text. Its nesting is bounded well below the parser's 500 levels: routes are written
     * back inside responses, lists and events, and a document too deep for the JSON writer would make every listing a
     * 500.
     */
    private static String routes(JsonFields f) {
        JsonNode routes = f.get("routes");
        if (routes == null) {
            return null;
        }
        String text = routes.isObject() && depth(routes) <= MAX_ROUTES_DEPTH ? Json.write(routes) : null;
        if (text == null || text.getBytes(StandardCharsets.UTF_8).length > MAX_ROUTES_BYTES) {
            f.invalid("routes");
            return null;
        }
        return text;
    }

    /** Levels of objects and arrays: 1 for {@code {}}, 2 for {@code {"a": []}}. */
    static int depth(JsonNode node) {
        int deepest = 0;
        for (JsonNode child : node) {
            deepest = Math.max(deepest, depth(child));
        }
        return node.isContainer() ? deepest + 1 : 0;
    }

    private static ModificationTag modificationTag(JsonFields f) {
        JsonFields tag = f.object("modification_tag", false);
        if (tag == null) {
            return null;
        }
        tag.rejectUnknown(Set.of("epoch", "index"));
        String epoch = tag.string("epoch", true, 64, DesiredLrpRequests::isUuid);
        Integer index = tag.integer("index", true, 0, Integer.MAX_VALUE);
        return epoch == null || index == null ? null : new ModificationTag(UUID.fromString(epoch), index);
    }

    static boolean isUuid(String s) {
        try {
            return UUID.fromString(s).toString().equalsIgnoreCase(s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

}
