package io.drover.rep.executor.process.cgroup;

import io.drover.model.cell.CellIsolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether this rep can give each instance a cgroup, and where. v1 needs the memory, cpu, cpuacct, pids and freezer
 * controllers mounted and a base directory the rep may create; v2 needs the memory, pids and cpu controllers available
 * in the rep's own cgroup and the right to enable them for children. Anything else (not root and not delegated, not
 * mounted, a read-only /sys/fs/cgroup in an unprivileged container) is a reason to fall back to sampling.
 *
 * @param cgroups the hierarchy, when usable
 * @param reason why not, when not
 */
public record CgroupDetection(Optional<Cgroups> cgroups, String reason) {

    /** The leaf a v2 rep moves itself into, so that its own cgroup may enable controllers for its children. */
    static final String REP_LEAF = "drover-rep";

    private static final Path SELF_MOUNTINFO = Path.of("/proc/self/mountinfo");

    private static final Path SELF_CGROUP = Path.of("/proc/self/cgroup");

    /** Looks at this machine: {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}. */
    public static CgroupDetection detect(String rootName) {
        try {
            return detect(Files.readString(SELF_MOUNTINFO), Files.readString(SELF_CGROUP), rootName);
        } catch (IOException e) {
            return unusable("cannot read /proc/self/cgroup (not Linux?): " + e.getMessage());
        }
    }

    /**
     * The base directories named {@code rootName} that exist now under this process's own cgroups, v1 and v2, without
     * creating anything: what a rep that stopped with nothing running must not have left behind.
     */
    public static List<Path> existing(String rootName) {
        try {
            String mountinfo = Files.readString(SELF_MOUNTINFO);
            String selfCgroup = Files.readString(SELF_CGROUP);
            Stream<Path> own = Stream.concat(CgroupPaths.v1(mountinfo, selfCgroup).values().stream(),
                    CgroupPaths.v2(mountinfo, selfCgroup).stream());
            return own.map(dir -> dir.resolve(rootName)).distinct().filter(Files::isDirectory).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static CgroupDetection detect(String mountinfo, String selfCgroup, String rootName) {
        Map<String, Path> v1 = CgroupPaths.v1(mountinfo, selfCgroup);
        if (v1.keySet().containsAll(V1Cgroup.CONTROLLERS)) {
            return v1(v1, rootName);
        }
        Optional<Path> v2 = CgroupPaths.v2(mountinfo, selfCgroup);
        if (v2.isPresent() && Files.isReadable(v2.get().resolve("cgroup.controllers"))) {
            return v2(v2.get(), rootName);
        }
        List<String> missing = V1Cgroup.CONTROLLERS.stream().filter(c -> !v1.containsKey(c)).toList();
        return unusable("no cgroup v1 controllers " + missing + " and no cgroup v2 hierarchy");
    }

    private static CgroupDetection v1(Map<String, Path> own, String rootName) {
        Map<String, Path> bases = new LinkedHashMap<>();
        for (String controller : V1Cgroup.CONTROLLERS) {
            Path base = own.get(controller).resolve(rootName);
            try {
                Files.createDirectories(base);
                bases.put(controller, base);
            } catch (IOException e) {
                CgroupFiles.removeAll(bases.values());
                return unusable("cannot create " + base + ": " + describe(e));
            }
        }
        for (Path base : bases.values()) {
            if (!Files.isWritable(base.resolve("cgroup.procs"))) {
                CgroupFiles.removeAll(bases.values());
                return unusable("cannot write " + base.resolve("cgroup.procs"));
            }
        }
        return new CgroupDetection(Optional.of(new Cgroups(CellIsolation.CGROUPS_V1, bases)), "");
    }

    private static CgroupDetection v2(Path ownDir, String rootName) {
        Path own = ownDir.getFileName() != null && ownDir.getFileName().toString().equals(REP_LEAF)
                ? ownDir.getParent() : ownDir;
        String available = CgroupFiles.read(own.resolve("cgroup.controllers"));
        List<String> missing = List.of("memory", "pids", "cpu").stream()
                .filter(c -> !List.of(available.trim().split(" ")).contains(c)).toList();
        if (!missing.isEmpty()) {
            return unusable("cgroup v2 controllers " + missing + " are not delegated to " + own);
        }
        Path base = own.resolve(rootName);
        try {
            enableForChildren(own);
            Files.createDirectories(base);
            CgroupFiles.write(base.resolve("cgroup.subtree_control"), V2Cgroup.CONTROLLERS);
        } catch (IOException e) {
            return unusable("cannot enable cgroup v2 controllers under " + own + ": " + describe(e));
        }
        return new CgroupDetection(Optional.of(new Cgroups(CellIsolation.CGROUPS_V2, Map.of(V2Cgroup.KEY, base))),
                "");
    }

    /**
     * A v2 cgroup with processes in it may not enable controllers for children ("no internal processes"), so a rep in
     * a cgroup of its own (systemd {@code Delegate=yes}) first moves itself into a leaf beside the instances.
     */
    private static void enableForChildren(Path own) throws IOException {
        try {
            CgroupFiles.write(own.resolve("cgroup.subtree_control"), V2Cgroup.CONTROLLERS);
        } catch (IOException busy) {
            Path leaf = own.resolve(REP_LEAF);
            Files.createDirectories(leaf);
            CgroupFiles.write(leaf.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
            CgroupFiles.write(own.resolve("cgroup.subtree_control"), V2Cgroup.CONTROLLERS);
        }
    }

    private static CgroupDetection unusable(String reason) {
        return new CgroupDetection(Optional.empty(), reason);
    }

    private static String describe(IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage());
    }
}
