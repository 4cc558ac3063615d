package io.drover.verify.compose;

import java.util.List;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The compose projects an earlier run of the checker left behind: named {@code drover-verify-<pid>} after the JVM that
 * started them, whose JVM is gone (killed, or its machine restarted before it removed the project). Their containers
 * restart whenever a Docker daemon starts ({@code restart: unless-stopped}), and then take CPU and the reps' host ports
 * from the next run, so a run removes them before it starts its own.
 */
final class StaleProjects {

    private static final Pattern NAME = Pattern.compile("drover-verify-(\\d+)");

    private StaleProjects() {
    }

    /** Of the compose projects {@code names} (one per container, repeats allowed), those of a checker no longer alive. */
    static List<String> among(List<String> names, LongPredicate alive) {
        return names.stream().distinct().filter(name -> {
            Matcher m = NAME.matcher(name);
            return m.matches() && !alive.test(Long.parseLong(m.group(1)));
        }).sorted().toList();
    }

    /** Whether a process of this pid runs a checker (a recycled pid of another program does not keep a project). */
    static boolean checkerAlive(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .flatMap(p -> p.info().commandLine())
                .map(line -> line.contains("verify"))
                .orElse(false);
    }
}
