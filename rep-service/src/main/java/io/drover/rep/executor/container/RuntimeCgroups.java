package io.drover.rep.executor.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The parents the runtime makes for an instance's cgroup ({@code <cgroup-root>/<cell>} under the rep's own cgroup)
 * in every hierarchy it knows, not only in those the process executor manages (cpuset, devices, blkio, the named
 * systemd one and a hybrid machine's unified one too). The runtime removes an instance's own directory when it
 * deletes the container; the empty parents are removed here when the rep stops. {@code rmdir} never removes a cgroup
 * that still holds a process or a child, so a container left running for the next rep keeps its path.
 */
final class RuntimeCgroups {

    private RuntimeCgroups() {
    }

    /** Removes the empty directories under {@code <mount>/<own cgroup>/<root>} in every cgroup hierarchy. */
    static void removeEmpty(String root) {
        for (Path base : bases(root)) {
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (Stream<Path> dirs = Files.walk(base)) {
                for (Path dir : dirs.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(dir);
                }
            } catch (IOException e) {
                // still in use (a container left running, or another rep's): kept
            }
        }
    }

    private static List<Path> bases(String root) {
        List<Path> bases = new ArrayList<>();
        try {
            Map<String, String> own = ownPaths();
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] halves = line.split(" - ", 2);
                if (halves.length < 2) {
                    continue;
                }
                String[] mount = halves[0].split(" ");
                String[] fs = halves[1].split(" ");
                String key = fs[0].equals("cgroup2") ? "" : fs[0].equals("cgroup") ? hierarchy(fs[2], own.keySet())
                        : null;
                if (key != null && own.containsKey(key)) {
                    bases.add(Path.of(mount[4], own.get(key).substring(1), root));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no cgroups to tidy
        }
        return bases;
    }

    /** The rep's own cgroup per hierarchy, keyed by its controllers as /proc/self/cgroup names them ("" for v2). */
    private static Map<String, String> ownPaths() throws IOException {
        Map<String, String> own = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
            String[] parts = line.split(":", 3);
            if (parts.length == 3) {
                own.put(parts[1], parts[2]);
            }
        }
        return own;
    }

    /** Which /proc/self/cgroup entry a v1 mount is: the one whose controllers its options name. */
    private static String hierarchy(String options, Set<String> keys) {
        Set<String> named = Set.of(options.split(","));
        return keys.stream().filter(k -> !k.isEmpty() && named.containsAll(List.of(k.split(",")))).findFirst()
                .orElse(null);
    }
}
