package io.drover.model.lrp;

import java.util.List;

/**
 * A process to run: {@code {"path", "args", "dir", "env", "resource_limits": {"nofile"}}}. Used for the main action and
 * for the monitor.
 */
public record RunAction(String path, List<String> args, String dir, List<EnvVar> env, ResourceLimits resourceLimits) {

    public RunAction {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? List.of() : List.copyOf(env);
    }

    /** Limits the executor applies to the process where the OS lets it. */
    public record ResourceLimits(Long nofile) {
    }
}
