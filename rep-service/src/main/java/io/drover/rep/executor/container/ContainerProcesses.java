package io.drover.rep.executor.container;

import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.container.BundleConfig.ProcessSpec;
import io.drover.rep.executor.container.RootfsCatalog.Lower;
import io.drover.rep.executor.process.SandboxedInstance;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a run action becomes a process in a container: its user (the action's, or the cell's default), its working
 * directory under {@code /app}, its environment (the host's PATH, inherited by the process executor's rules, means
 * nothing inside and becomes a standard one), and the check that its program exists in the root filesystem.
 */
final class ContainerProcesses {

    static final String DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

    private final ContainerProperties properties;

    ContainerProcesses(ContainerProperties properties) {
        this.properties = properties;
    }

    ProcessSpec spec(List<String> args, Map<String, String> env, String cwd, RunAction action) {
        List<String> vars = new ArrayList<>();
        String hostPath = System.getenv("PATH");
        env.forEach((name, value) -> vars.add(name + "="
                + ("PATH".equals(name) && value.equals(hostPath) ? DEFAULT_PATH : value)));
        if (!env.containsKey("PATH")) {
            vars.add("PATH=" + DEFAULT_PATH);
        }
        Long nofile = action.resourceLimits() == null ? null : action.resourceLimits().nofile();
        int[] user = user(action.user());
        return new ProcessSpec(args, vars, cwd, user[0], user[1], nofile);
    }

    /** The idle init of a composite action's container: created, never started; its steps are exec'd beside it. */
    ProcessSpec idle(boolean withInit) {
        return new ProcessSpec(List.of(withInit ? BundleConfig.INIT : "/bin/sh"), List.of("PATH=" + DEFAULT_PATH),
                BundleConfig.APP, properties.uid(), properties.gid(), null);
    }

    /** The run action's user ({@code root}, {@code uid} or {@code uid:gid}), else the cell's default. */
    int[] user(String user) {
        if (user == null || user.isBlank()) {
            return new int[] { properties.uid(), properties.gid() };
        }
        if (user.equals("root")) {
            return new int[] { 0, 0 };
        }
        String[] parts = user.split(":");
        int uid = Integer.parseInt(parts[0]);
        return new int[] { uid, parts.length > 1 ? Integer.parseInt(parts[1]) : uid };
    }

    static String cwd(RunAction action) {
        if (action.dir() == null || action.dir().isBlank()) {
            return BundleConfig.APP;
        }
        return action.dir().startsWith("/") ? action.dir() : BundleConfig.APP + "/" + action.dir();
    }

    /** Fails with a readable reason (as the process executor does) instead of the runtime's exit status. */
    static void requireExecutable(Lower lower, SandboxedInstance instance, String path, String cwd,
            Map<String, String> env) throws IOException {
        List<String> candidates = new ArrayList<>();
        if (path.startsWith("/")) {
            candidates.add(path);
        } else if (path.contains("/")) {
            candidates.add(cwd + "/" + path);
        } else {
            String search = env.getOrDefault("PATH", DEFAULT_PATH);
            for (String dir : (search.equals(System.getenv("PATH")) ? DEFAULT_PATH : search).split(File.pathSeparator)) {
                if (!dir.isEmpty()) {
                    candidates.add(dir + "/" + path);
                }
            }
        }
        for (String candidate : candidates) {
            Path onHost = candidate.equals(BundleConfig.APP) || candidate.startsWith(BundleConfig.APP + "/")
                    ? instance.app().resolve(candidate.substring(BundleConfig.APP.length()).replaceFirst("^/+", ""))
                    : lower.onHost(candidate);
            // an absolute link inside an image points into the image, not the host: the runtime will judge it
            if (Files.isExecutable(onHost) || Files.isSymbolicLink(onHost)) {
                return;
            }
        }
        throw new IOException("no executable " + path);
    }
}
