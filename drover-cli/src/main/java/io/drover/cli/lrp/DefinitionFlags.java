package io.drover.cli.lrp;

import io.drover.cli.json.ArrayNode;
import io.drover.cli.json.Json;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.session.UsageException;
import java.util.List;

/**
 * The flags that say what runs, as the API's JSON, shared by {@code desire}, {@code deploy} and {@code task submit}:
 * the command after {@code --} as a run action, {@code -e NAME=VALUE}, and {@code --check}. Pure.
 */
public final class DefinitionFlags {

    private DefinitionFlags() {
    }

    /** {@code {"run": {"path", "args"}}}. */
    public static ObjectNode action(List<String> command) {
        ObjectNode action = Json.object();
        ObjectNode run = action.putObject("run").put("path", command.get(0));
        ArrayNode args = run.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        return action;
    }

    /** {@code [{"name", "value"}]}. */
    public static ArrayNode env(List<String> pairs) {
        ArrayNode env = Json.array();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--env takes NAME=VALUE, not '" + pair + "'");
            }
            env.addObject().put("name", pair.substring(0, eq)).put("value", pair.substring(eq + 1));
        }
        return env;
    }

    /**
     * {@code --check tcp} checks the first port, {@code --check http:/health} asks that path on it, {@code none}
     * checks nothing (no checks); a check needs a port.
     */
    public static ObjectNode checkDefinition(String check, List<Integer> ports) {
        ObjectNode definition = Json.object();
        ArrayNode checks = definition.putArray("checks");
        if (check.equals("none")) {
            return definition;
        }
        if (ports.isEmpty()) {
            throw new UsageException("--check needs a --port to check");
        }
        ObjectNode probe = checks.addObject();
        if (check.equals("tcp")) {
            probe.putObject("tcp_check").put("port", ports.get(0));
        } else if (check.startsWith("http:") && check.length() > 5 && check.charAt(5) == '/') {
            probe.putObject("http_check").put("port", ports.get(0)).put("path", check.substring(5));
        } else {
            throw new UsageException("--check takes tcp, http:/PATH or none, not '" + check + "'");
        }
        return definition;
    }
}
