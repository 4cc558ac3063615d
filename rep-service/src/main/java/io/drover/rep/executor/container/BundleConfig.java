package io.drover.rep.executor.container;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An instance's OCI runtime configuration ({@code config.json}, runtime-spec 1.0) and the process objects of the
 * processes run in it, built from plain values: pure, so that what a container gets is readable in one place and
 * tested without a runtime. The root is the bundle's {@code rootfs} (the instance's overlay); the pid, mount, uts and
 * ipc namespaces are always new, the network namespace is the instance's own when it has one; the cgroup is the
 * process executor's path for the instance, so its tree, usage, OOM counter and kill work as for a host process.
 */
final class BundleConfig {

    /** Where an instance's {@code app/} directory is inside its container (its processes' working directory). */
    static final String APP = "/app";

    /** Where the rep's static init is mounted inside a container. */
    static final String INIT = "/.drover/init";

    private static final List<String> DEFAULT_CAPABILITIES = List.of("CAP_AUDIT_WRITE", "CAP_KILL",
            "CAP_NET_BIND_SERVICE");

    private BundleConfig() {
    }

    /** A host directory or file mounted into the container. */
    record Bind(String source, String destination, boolean readOnly) {
    }

    /** One process: its command line, environment, working directory inside the container, user, nofile limit. */
    record ProcessSpec(List<String> args, List<String> env, String cwd, int uid, int gid, Long nofile) {
    }

    /**
     * The container.
     *
     * @param memoryBytes 0 for no limit; {@code swapAccounted}: the limit covers swap too (memory.memsw exists)
     * @param shares cpu.shares; {@code pids} 0 for no limit
     * @param networkNamespace the path of the instance's network namespace, null to share the host's network
     */
    record Spec(String hostname, ProcessSpec process, List<Bind> binds, String cgroupsPath, long memoryBytes,
            boolean swapAccounted, int shares, int pids, String networkNamespace) {
    }

    static Map<String, Object> config(Spec spec) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("ociVersion", "1.0.2");
        config.put("process", process(spec.process()));
        config.put("root", Map.of("path", "rootfs", "readonly", false));
        config.put("hostname", spec.hostname());
        config.put("mounts", mounts(spec.binds()));
        config.put("linux", linux(spec));
        return config;
    }

    static Map<String, Object> process(ProcessSpec p) {
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("terminal", false);
        process.put("user", Map.of("uid", p.uid(), "gid", p.gid()));
        process.put("args", p.args());
        process.put("env", p.env());
        process.put("cwd", p.cwd());
        List<String> none = List.of();
        boolean root = p.uid() == 0;
        // a root user keeps the runtime's small default set; anyone else gets them only as a bound, never effective
        process.put("capabilities", Map.of("bounding", DEFAULT_CAPABILITIES,
                "effective", root ? DEFAULT_CAPABILITIES : none, "permitted", root ? DEFAULT_CAPABILITIES : none,
                "inheritable", none, "ambient", none));
        if (p.nofile() != null && p.nofile() > 0) {
            process.put("rlimits", List.of(Map.of("type", "RLIMIT_NOFILE", "hard", p.nofile(), "soft", p.nofile())));
        }
        process.put("noNewPrivileges", true);
        return process;
    }

    private static List<Map<String, Object>> mounts(List<Bind> binds) {
        List<Map<String, Object>> mounts = new ArrayList<>();
        mounts.add(mount("/proc", "proc", "proc", List.of("nosuid", "noexec", "nodev")));
        mounts.add(mount("/dev", "tmpfs", "tmpfs", List.of("nosuid", "strictatime", "mode=755", "size=65536k")));
        mounts.add(mount("/dev/pts", "devpts", "devpts",
                List.of("nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620")));
        mounts.add(mount("/dev/shm", "tmpfs", "shm", List.of("nosuid", "noexec", "nodev", "mode=1777", "size=65536k")));
        mounts.add(mount("/dev/mqueue", "mqueue", "mqueue", List.of("nosuid", "noexec", "nodev")));
        mounts.add(mount("/sys", "sysfs", "sysfs", List.of("nosuid", "noexec", "nodev", "ro")));
        for (Bind bind : binds) {
            List<String> options = new ArrayList<>(List.of("rbind", "nosuid", "nodev"));
            options.add(bind.readOnly() ? "ro" : "rw");
            mounts.add(mount(bind.destination(), "bind", bind.source(), options));
        }
        return mounts;
    }

    private static Map<String, Object> mount(String destination, String type, String source, List<String> options) {
        Map<String, Object> mount = new LinkedHashMap<>();
        mount.put("destination", destination);
        mount.put("type", type);
        mount.put("source", source);
        mount.put("options", options);
        return mount;
    }

    private static Map<String, Object> linux(Spec spec) {
        Map<String, Object> linux = new LinkedHashMap<>();
        List<Map<String, String>> namespaces = new ArrayList<>();
        for (String type : List.of("pid", "ipc", "uts", "mount")) {
            namespaces.add(Map.of("type", type));
        }
        if (spec.networkNamespace() != null) {
            namespaces.add(Map.of("type", "network", "path", spec.networkNamespace()));
        }
        linux.put("namespaces", namespaces);
        linux.put("cgroupsPath", spec.cgroupsPath());
        linux.put("resources", resources(spec));
        linux.put("maskedPaths", List.of("/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
                "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/sys/firmware",
                "/proc/scsi"));
        linux.put("readonlyPaths", List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"));
        return linux;
    }

    /** SPEC 8.2's limits, written by the runtime into the instance's cgroup. */
    private static Map<String, Object> resources(Spec spec) {
        Map<String, Object> resources = new LinkedHashMap<>();
        resources.put("devices", List.of(Map.of("allow", false, "access", "rwm")));
        if (spec.memoryBytes() > 0) {
            Map<String, Object> memory = new LinkedHashMap<>();
            memory.put("limit", spec.memoryBytes());
            if (spec.swapAccounted()) {
                memory.put("swap", spec.memoryBytes());
            }
            resources.put("memory", memory);
        }
        resources.put("cpu", Map.of("shares", spec.shares()));
        if (spec.pids() > 0) {
            resources.put("pids", Map.of("limit", spec.pids()));
        }
        return resources;
    }
}
