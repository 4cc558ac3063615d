package io.drover.model.lrp;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * A process to run: {@code {"path", "args", "dir", "env", "resource_limits": {"nofile"}, "user"}}. Used for the main
 * action and for the monitor. {@code user} ({@code root}, {@code uid} or {@code uid:gid}; null for the cell's default)
 * is whom a container executor runs it as; the process executor runs everything as the rep's own user.
 */
public record RunAction(String path, List<String> args, String dir, List<EnvVar> env, ResourceLimits resourceLimits,
        @JsonInclude(JsonInclude.Include.NON_NULL) String user) {

    public RunAction {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? List.of() : List.copyOf(env);
    }

    public RunAction(String path, List<String> args, String dir, List<EnvVar> env, ResourceLimits resourceLimits) {
        this(path, args, dir, env, resourceLimits, null);
    }

    /** Limits the executor applies to the process where the OS lets it. */
    public record ResourceLimits(Long nofile) {
    }
}
