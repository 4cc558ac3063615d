package io.drover.rep.executor.process.cgroup;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where this process's own cgroups are, read from {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}. Pure. A
 * cgroup path is relative to its hierarchy's root, and a mount may show only a subtree of it (a container's bind
 * mount), so the directory is the mount point plus the path below the mount's root.
 */
final class CgroupPaths {

    private CgroupPaths() {
    }

    /**
     * The v1 controllers this process is in, each with its own cgroup directory (co-mounted ones share it); named
     * hierarchies without a controller ({@code name=systemd}) are left out.
     */
    static Map<String, Path> v1(String mountinfo, String selfCgroup) {
        Map<String, Path> dirs = new LinkedHashMap<>();
        List<Mount> mounts = mounts(mountinfo);
        for (String line : selfCgroup.split("\n")) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3 || parts[1].isEmpty()) {
                continue;
            }
            for (String controller : parts[1].split(",")) {
                if (controller.startsWith("name=")) {
                    continue;
                }
                mounts.stream().filter(m -> m.type().equals("cgroup") && m.controllers().contains(controller))
                        .map(m -> m.dirOf(parts[2])).flatMap(Optional::stream).findFirst()
                        .ifPresent(dir -> dirs.putIfAbsent(controller, dir));
            }
        }
        return dirs;
    }

    /** This process's cgroup directory in the unified (v2) hierarchy, if one is mounted. */
    static Optional<Path> v2(String mountinfo, String selfCgroup) {
        List<Mount> mounts = mounts(mountinfo);
        for (String line : selfCgroup.split("\n")) {
            if (line.startsWith("0::")) {
                String path = line.substring(3);
                return mounts.stream().filter(m -> m.type().equals("cgroup2")).map(m -> m.dirOf(path))
                        .flatMap(Optional::stream).findFirst();
            }
        }
        return Optional.empty();
    }

    private static List<Mount> mounts(String mountinfo) {
        return mountinfo.lines().map(Mount::parse).flatMap(Optional::stream).toList();
    }

    /** One line of mountinfo: the subtree it shows ({@code root}), where, the filesystem type and its options. */
    private record Mount(String root, String mountPoint, String type, List<String> controllers) {

        static Optional<Mount> parse(String line) {
            String[] fields = line.split(" ");
            int dash = List.of(fields).indexOf("-");
            if (dash < 6 || fields.length < dash + 4) {
                return Optional.empty();
            }
            return Optional.of(new Mount(unescape(fields[3]), unescape(fields[4]), fields[dash + 1],
                    List.of(fields[dash + 3].split(","))));
        }

        Optional<Path> dirOf(String cgroupPath) {
            String base = root.equals("/") ? "" : root;
            if (!cgroupPath.equals(base) && !cgroupPath.startsWith(base + "/")) {
                return Optional.empty();
            }
            String below = cgroupPath.substring(base.length());
            return Optional.of(Path.of(mountPoint + (below.equals("/") ? "" : below)));
        }

        /** mountinfo writes space, tab, newline and backslash as octal escapes. */
        private static String unescape(String field) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < field.length(); i++) {
                char c = field.charAt(i);
                if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).chars()
                        .allMatch(d -> d >= '0' && d <= '7')) {
                    out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                    i += 3;
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }
    }
}
