package io.drover.rep.executor.process;

import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts a run action as a real process: in cgroup mode first through a shell that joins the instance's cgroup and
 * execs the rest, then through {@code setsid} (a session and process group of its own, so the whole tree can be found
 * and signalled, and the rep's terminal signals never reach it), through {@code prlimit} (or an {@code sh ulimit}
 * wrapper) for its nofile limit, with stdout/stderr appended to the instance's log files and stdin from /dev/null.
 * Nothing is piped to the rep, so the process outlives a rep restart unharmed.
 */
final class ProcessLauncher {

    private static final File DEV_NULL = new File("/dev/null");

    private final Optional<Path> setsid = onPath("setsid");

    private final Optional<Path> prlimit = onPath("prlimit");

    private final Optional<Path> nice = onPath("nice");

    private final Optional<Path> sh = onPath("sh");

    private final long nofileHardLimit = ownNofileHardLimit();

    boolean usesSessions() {
        return setsid.isPresent();
    }

    boolean limitsNofile() {
        return prlimit.isPresent() || sh.isPresent();
    }

    /** Launches in {@code cgroup} when there is one (cpu_weight is then its CPU share, not a nice level). */
    Process launch(RunAction action, int cpuWeight, Map<String, String> env, InstanceDir dir,
            Optional<InstanceCgroup> cgroup) throws IOException {
        Path cwd = workingDirectory(action, dir);
        requireExecutable(action.path(), cwd, env.get("PATH"));
        List<String> command = new ArrayList<>();
        if (cgroup.isPresent()) {
            command.addAll(cgroup.get().joinCommand(sh.orElseThrow(() -> new IOException("no sh to join a cgroup"))));
        }
        command.addAll(command(action, cgroup.isPresent() ? 0 : cpuWeight));
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.stdout().toFile()))
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.stderr().toFile()));
        if (DEV_NULL.exists()) {
            builder.redirectInput(DEV_NULL);
        }
        builder.environment().clear();
        builder.environment().putAll(env);
        return builder.start();
    }

    List<String> command(RunAction action, int cpuWeight) {
        List<String> command = new ArrayList<>();
        // -w: should setsid have to fork (it only does when already a group leader), it waits and passes on the status.
        setsid.ifPresent(path -> command.addAll(List.of(path.toString(), "-w")));
        int niceness = niceness(cpuWeight);
        if (niceness > 0 && nice.isPresent()) {
            command.addAll(List.of(nice.get().toString(), "-n", Integer.toString(niceness)));
        }
        Long nofile = action.resourceLimits() == null ? null : action.resourceLimits().nofile();
        if (nofile != null && nofile > 0) {
            long limit = Math.min(nofile, nofileHardLimit);
            if (prlimit.isPresent()) {
                command.addAll(List.of(prlimit.get().toString(), "--nofile=" + limit + ":" + limit, "--"));
            } else if (sh.isPresent()) {
                command.addAll(List.of(sh.get().toString(), "-c", "ulimit -n " + limit + " && exec \"$0\" \"$@\""));
            }
        }
        command.add(action.path());
        command.addAll(action.args());
        return command;
    }

    /**
     * cpu_weight (1..100, relative) as a nice level: each nice step weighs 1.25 times less in the kernel's scheduler,
     * so weight w gets nice log1.25(100 / w), and two busy workloads share a contended CPU roughly in the ratio of
     * their weights. 0 and 100 (the defaults) leave the process at the rep's own priority.
     */
    static int niceness(int cpuWeight) {
        if (cpuWeight <= 0 || cpuWeight >= 100) {
            return 0;
        }
        return (int) Math.min(19, Math.round(Math.log(100.0 / cpuWeight) / Math.log(1.25)));
    }

    private static Path workingDirectory(RunAction action, InstanceDir dir) {
        if (action.dir() == null || action.dir().isBlank()) {
            return dir.app();
        }
        return dir.app().resolve(action.dir());
    }

    /** Fails with a readable reason instead of a wrapper's "failed to execute" exit status. */
    private static void requireExecutable(String path, Path cwd, String searchPath) throws IOException {
        boolean found = path.contains("/") ? Files.isExecutable(cwd.resolve(path))
                : searchPath != null && List.of(searchPath.split(File.pathSeparator)).stream()
                        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, path)));
        if (!found) {
            throw new IOException("no executable " + path);
        }
    }

    private static Optional<Path> onPath(String tool) {
        return List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin").stream()
                .map(d -> Path.of(d, tool)).filter(Files::isExecutable).findFirst();
    }

    /** A process may lower its hard limit but not raise it, so a nofile above the rep's own is clamped to it. */
    private static long ownNofileHardLimit() {
        Pattern line = Pattern.compile("^Max open files\\s+\\S+\\s+(\\d+)", Pattern.MULTILINE);
        try {
            Matcher matcher = line.matcher(Files.readString(Path.of("/proc/self/limits")));
            return matcher.find() ? Long.parseLong(matcher.group(1)) : Long.MAX_VALUE;
        } catch (IOException | RuntimeException e) {
            return Long.MAX_VALUE;
        }
    }
}
