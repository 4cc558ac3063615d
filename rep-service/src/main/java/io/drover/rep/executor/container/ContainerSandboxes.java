package io.drover.rep.executor.container;

import io.drover.rep.executor.process.Sandbox;
import io.drover.rep.executor.process.SandboxProvider;
import io.drover.rep.executor.process.cgroup.Cgroups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides once, at the rep's start, whether its instances run in containers: it must be root, have cgroups (the
 * instances' trees are their cgroups), an OCI runtime, and that runtime must run a trial container here (inside an
 * unprivileged Docker container it cannot). Otherwise it says why, and the process executor runs them on the host.
 */
public final class ContainerSandboxes implements SandboxProvider {

    private static final Logger log = LoggerFactory.getLogger(ContainerSandboxes.class);

    private final ContainerProperties properties;

    private final String cgroupRoot;

    public ContainerSandboxes(ContainerProperties properties, String cgroupRoot) {
        this.properties = properties;
        this.cgroupRoot = cgroupRoot;
    }

    @Override
    public Sandbox sandbox(Optional<Cgroups> cgroups) throws Unavailable {
        if (!"root".equals(System.getProperty("user.name"))) {
            throw new Unavailable("the rep does not run as root (an OCI runtime needs root to make namespaces)");
        }
        if (cgroups.isEmpty()) {
            throw new Unavailable("no cgroups the rep may use (a container's tree is its cgroup)");
        }
        Path binary = OciRuntime.locate(properties.runtime()).orElseThrow(() -> new Unavailable(
                "no OCI runtime (" + ("auto".equals(properties.runtime()) ? "crun or runc" : properties.runtime())
                        + ") installed; apt-get install runc, or .ci/install-runc"));
        OciRuntime runtime = new OciRuntime(binary, properties.stateDir());
        RootfsCatalog rootfs = new RootfsCatalog(properties.rootfsDir());
        try {
            Files.createDirectories(properties.stateDir());
            Files.createDirectories(properties.bundleDir());
            Files.createDirectories(properties.rootfsDir());
            trial(runtime, rootfs);
        } catch (IOException e) {
            throw new Unavailable(binary + " cannot run a container here: " + e.getMessage());
        }
        Path init = init();
        boolean swap = cgroups.get().bases().containsKey("memory")
                && Files.exists(cgroups.get().bases().get("memory").getParent().resolve("memory.memsw.limit_in_bytes"));
        log.info("container-executor runtime={} state_dir={} bundle_dir={} rootfs_dir={} rootfs={} init={} user={}",
                binary, properties.stateDir(), properties.bundleDir(), properties.rootfsDir(), rootfs.preloaded(),
                init == null ? "none (a workload is pid 1 itself)" : init, properties.user());
        if (!Files.isExecutable(Path.of("/usr/sbin/ip")) && !Files.isExecutable(Path.of("/sbin/ip"))
                && !Files.isExecutable(Path.of("/usr/bin/ip")) && !Files.isExecutable(Path.of("/bin/ip"))) {
            throw new Unavailable("no ip command (iproute2) to give instances network namespaces");
        }
        try {
            return new RuncSandbox(properties, runtime, rootfs, init, cgroupRoot, swap,
                    new InstanceNetwork(Subnet.parse(properties.subnet()), properties.bundleDir()),
                    new PortForwarder());
        } catch (IOException e) {
            throw new Unavailable("cannot forward ports: " + e.getMessage());
        }
    }

    /** A container of the host's rootfs that runs {@code true}, without cgroup limits: proves the runtime works. */
    private void trial(OciRuntime runtime, RootfsCatalog rootfs) throws IOException {
        Path bundle = Files.createTempDirectory(properties.bundleDir(), ".trial-");
        // unique per trial: the reps of a local cluster share one JVM and start side by side
        String id = "drover-trial-" + ProcessHandle.current().pid() + "-" + java.util.UUID.randomUUID();
        try {
            RootfsCatalog.Lower lower = rootfs.lower(RootfsCatalog.HOST);
            BundleConfig.Spec spec = new BundleConfig.Spec("trial", new BundleConfig.ProcessSpec(List.of("/bin/true"),
                    List.of("PATH=/usr/bin:/bin"), "/", properties.uid(), properties.gid(), null), lower.binds(),
                    null, 0, false, 1024, 0, null);
            Map<String, Object> config = BundleConfig.config(spec);
            ((Map<?, ?>) config.get("linux")).remove("cgroupsPath");
            config.put("root", Map.of("path", lower.dir().toString(), "readonly", true));
            Files.writeString(bundle.resolve("config.json"), io.drover.model.json.Json.write(config));
            runtime.delete(id);
            OciRuntime.Result result = runtime.call(List.of("run", "--bundle", bundle.toString(), id),
                    Duration.ofSeconds(30));
            if (result.status() != 0) {
                throw new IOException("trial container exited with status " + result.status() + ": "
                        + result.output());
            }
        } finally {
            runtime.delete(id);
            try (var files = Files.list(bundle)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(bundle);
        }
    }

    private Path init() {
        if ("none".equals(properties.init())) {
            return null;
        }
        Path path = Path.of("auto".equals(properties.init()) ? "/usr/bin/tini-static" : properties.init());
        if (!Files.isExecutable(path)) {
            log.warn("container-executor-no-init path={} (a workload is pid 1 itself: SIGTERM reaches it only if it "
                    + "handles it; apt-get install tini)", path);
            return null;
        }
        return path;
    }
}
