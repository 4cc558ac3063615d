package io.drover.receptor.validation;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.RunAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses the nested parts of a desired LRP or a task: the {@code action} tree (Diego's {@code run}, {@code download},
 * {@code serial}, {@code parallel}, {@code codependent}, {@code timeout}, {@code try}, {@code emit_progress}), the
 * {@code monitor} ({@code {"run": {...}}} only) and {@code check_definition}. Every bad field is named by its path,
 * however deep: {@code action.serial.actions[1].run.path}. An action object must hold exactly one known kind.
 */
public final class ActionJson {

    static final int MAX_STRING = 4096;
    /** Deepest nesting of actions: far below the JSON writer's 500 levels, far above any sensible tree. */
    static final int MAX_DEPTH = 32;
    static final long MAX_TIMEOUT_MS = 7L * 24 * 3600 * 1000;
    private static final Set<String> ACTION_KINDS = Set.of("run", "download", "serial", "parallel", "codependent",
            "timeout", "try", "emit_progress");
    private static final Set<String> RUN_FIELDS = Set.of("path", "args", "dir", "env", "resource_limits", "user");
    private static final Set<String> CHECK_KINDS = Set.of("tcp_check", "http_check");

    private ActionJson() {
    }

    /** An action tree, e.g. {@code {"serial": {"actions": [{"download": {...}}, {"run": {...}}]}}}. */
    public static Action action(JsonFields parent, String name, boolean required) {
        JsonFields action = parent.object(name, required);
        return action == null ? null : tree(action, 1);
    }

    /** A single {@code {"run": {...}}} (the monitor): any other kind is named as invalid. */
    public static RunAction run(JsonFields parent, String name, boolean required) {
        JsonFields action = parent.object(name, required);
        if (action == null) {
            return null;
        }
        action.rejectUnknown(Set.of("run"));
        JsonFields run = action.object("run", false);
        if (run == null) {
            if (!action.has("run")) {
                parent.invalid(name);
            }
            return null;
        }
        return run(run);
    }

    private static Action tree(JsonFields action, int depth) {
        action.rejectUnknown(ACTION_KINDS);
        List<String> kinds = ACTION_KINDS.stream().filter(action::has).toList();
        if (kinds.size() != 1 || depth > MAX_DEPTH) {
            action.invalidSelf();
            return null;
        }
        String kind = kinds.get(0);
        JsonFields body = action.object(kind, true);
        if (body == null) {
            return null;
        }
        return switch (kind) {
            case "run" -> new Action(run(body));
            case "download" -> download(body);
            case "serial" -> Action.inSerial(children(body, depth));
            case "parallel" -> Action.inParallel(children(body, depth));
            case "codependent" -> Action.codependently(children(body, depth));
            case "timeout" -> timeout(body, depth);
            case "try" -> {
                body.rejectUnknown(Set.of("action"));
                Action inner = child(body, depth);
                yield inner == null ? null : Action.trying(inner);
            }
            default -> emitProgress(body, depth);
        };
    }

    static RunAction run(JsonFields run) {
        run.rejectUnknown(RUN_FIELDS);
        String path = run.string("path", true, MAX_STRING, s -> !s.isBlank());
        List<String> args = run.strings("args", MAX_STRING, s -> true);
        String dir = run.string("dir", false, MAX_STRING, s -> true);
        List<EnvVar> env = env(run, "env");
        Long nofile = null;
        JsonFields limits = run.object("resource_limits", false);
        if (limits != null) {
            limits.rejectUnknown(Set.of("nofile"));
            Integer value = limits.integer("nofile", false, 0, Integer.MAX_VALUE);
            nofile = value == null ? null : value.longValue();
        }
        // whom a container runs it as: root, or a numeric uid[:gid] (there are no user names common to every rootfs)
        String user = run.string("user", false, 32, s -> s.matches("root|\\d{1,9}(:\\d{1,9})?"));
        return new RunAction(path, args, dir, env, limits == null ? null : new RunAction.ResourceLimits(nofile),
                user);
    }

    private static Action download(JsonFields d) {
        d.rejectUnknown(Set.of("from", "to", "cache_key"));
        String from = d.string("from", true, MAX_STRING, Values::isDownloadUrl);
        String to = d.string("to", true, MAX_STRING, Values::isRelativePathInside);
        String cacheKey = d.string("cache_key", false, 256, s -> !s.isBlank());
        return from == null || to == null ? null : Action.downloading(from, to, cacheKey);
    }

    private static List<Action> children(JsonFields body, int depth) {
        body.rejectUnknown(Set.of("actions"));
        if (!body.has("actions") || !body.get("actions").isArray() || body.get("actions").isEmpty()) {
            body.invalid("actions");
            return List.of();
        }
        List<Action> actions = new ArrayList<>();
        for (JsonFields item : body.objects("actions")) {
            Action parsed = tree(item, depth + 1);
            if (parsed != null) {
                actions.add(parsed);
            }
        }
        return actions;
    }

    private static Action child(JsonFields body, int depth) {
        JsonFields inner = body.object("action", true);
        return inner == null ? null : tree(inner, depth + 1);
    }

    private static Action timeout(JsonFields body, int depth) {
        body.rejectUnknown(Set.of("action", "timeout_ms"));
        Integer timeoutMs = body.integer("timeout_ms", true, 1, Integer.MAX_VALUE);
        Action inner = child(body, depth);
        return inner == null || timeoutMs == null ? null : Action.withTimeout(inner, timeoutMs);
    }

    private static Action emitProgress(JsonFields body, int depth) {
        body.rejectUnknown(Set.of("action", "start_message", "success_message", "failure_message_prefix"));
        String start = body.string("start_message", false, MAX_STRING, s -> true);
        String success = body.string("success_message", false, MAX_STRING, s -> true);
        String failure = body.string("failure_message_prefix", false, MAX_STRING, s -> true);
        Action inner = child(body, depth);
        return inner == null ? null : Action.emittingProgress(inner, start, success, failure);
    }

    public static List<EnvVar> env(JsonFields parent, String name) {
        return parent.objects(name).stream().map(item -> {
            item.rejectUnknown(Set.of("name", "value"));
            String key = item.string("name", true, MAX_STRING, s -> !s.isEmpty() && s.indexOf('=') < 0);
            String value = item.string("value", false, 128 * 1024, s -> true);
            return new EnvVar(key, value == null ? "" : value);
        }).toList();
    }

    public static CheckDefinition checks(JsonFields parent, String name) {
        JsonFields definition = parent.object(name, false);
        if (definition == null) {
            return null;
        }
        definition.rejectUnknown(Set.of("checks"));
        List<CheckDefinition.Check> checks = definition.objects("checks").stream().map(ActionJson::check).toList();
        return new CheckDefinition(checks);
    }

    private static CheckDefinition.Check check(JsonFields check) {
        check.rejectUnknown(CHECK_KINDS);
        JsonFields tcp = check.object("tcp_check", false);
        JsonFields http = check.object("http_check", false);
        if (check.has("tcp_check") == check.has("http_check")) {
            check.invalid("tcp_check|http_check");
            return new CheckDefinition.Check(null, null);
        }
        CheckDefinition.TcpCheck tcpCheck = null;
        CheckDefinition.HttpCheck httpCheck = null;
        if (tcp != null) {
            tcp.rejectUnknown(Set.of("port", "connect_timeout_ms"));
            tcpCheck = new CheckDefinition.TcpCheck(port(tcp), tcp.integer("connect_timeout_ms", false, 0, 600_000));
        }
        if (http != null) {
            http.rejectUnknown(Set.of("port", "path", "request_timeout_ms"));
            httpCheck = new CheckDefinition.HttpCheck(port(http),
                    http.string("path", false, MAX_STRING, s -> s.startsWith("/")),
                    http.integer("request_timeout_ms", false, 0, 600_000));
        }
        return new CheckDefinition.Check(tcpCheck, httpCheck);
    }

    private static int port(JsonFields check) {
        Integer port = check.integer("port", true, 1, 65_535);
        return port == null ? 0 : port;
    }
}
