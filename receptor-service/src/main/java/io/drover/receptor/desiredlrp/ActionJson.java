package io.drover.receptor.desiredlrp;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.EnvVar;
import io.drover.model.lrp.RunAction;
import java.util.List;
import java.util.Set;

/**
 * Parses the nested parts of a desired LRP: {@code action} and {@code monitor} ({@code {"run": {...}}}), and
 * {@code check_definition}. Unknown kinds and unknown properties are named as invalid fields.
 */
final class ActionJson {

    static final int MAX_STRING = 4096;
    private static final Set<String> ACTION_KINDS = Set.of("run");
    private static final Set<String> RUN_FIELDS = Set.of("path", "args", "dir", "env", "resource_limits");
    private static final Set<String> CHECK_KINDS = Set.of("tcp_check", "http_check");

    private ActionJson() {
    }

    /** {@code {"run": {...}}}: exactly one known kind. */
    static Action action(JsonFields parent, String name, boolean required) {
        JsonFields action = parent.object(name, required);
        if (action == null) {
            return null;
        }
        action.rejectUnknown(ACTION_KINDS);
        JsonFields run = action.object("run", false);
        if (run == null) {
            if (!action.has("run")) {
                parent.invalid(name);
            }
            return null;
        }
        return new Action(run(run));
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
        return new RunAction(path, args, dir, env, limits == null ? null : new RunAction.ResourceLimits(nofile));
    }

    static List<EnvVar> env(JsonFields parent, String name) {
        return parent.objects(name).stream().map(item -> {
            item.rejectUnknown(Set.of("name", "value"));
            String key = item.string("name", true, MAX_STRING, s -> !s.isEmpty() && s.indexOf('=') < 0);
            String value = item.string("value", false, 128 * 1024, s -> true);
            return new EnvVar(key, value == null ? "" : value);
        }).toList();
    }

    static CheckDefinition checks(JsonFields parent, String name) {
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
