package io.drover.rep.executor.container;

import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.container.BundleConfig.Bind;
import io.drover.rep.executor.container.BundleConfig.ProcessSpec;
import io.drover.rep.executor.container.RootfsCatalog.Lower;
import io.drover.model.json.Json;
import io.drover.rep.executor.process.Sandbox;
import io.drover.rep.executor.process.SandboxedInstance;
import io.drover.rep.executor.process.cgroup.CgroupLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each instance in a container of an OCI runtime. {@link #prepare} lays out its bundle: the root filesystem is
 * an overlay mounted at {@code <bundle-dir>/<cell>/<instance>/rootfs}, the shared lower layer of its {@code rootfs}
 * under a writable layer in the instance's directory ({@code layer/}), so what it writes outside {@code /app} goes
 * with it. A plain run's process is the container's init ({@code runtime run}, under a static init where the cell has
 * one, so SIGTERM reaches it); a composite action's container is created idle and every step, like every monitor, is
 * a {@code runtime exec} into it. The container's cgroup is the process executor's path for the instance.
 */
final class RuncSandbox implements Sandbox {

    private static final Logger log = LoggerFactory.getLogger(RuncSandbox.class);

    private final ContainerProperties properties;

    private final OciRuntime runtime;

    private final RootfsCatalog rootfs;

    private final Path init;

    private final String cgroupRoot;

    private final boolean swapAccounted;

    private final AtomicLong execs = new AtomicLong();

    private final InstanceNetwork network;

    private final PortForwarder forwarder;

    private final InstanceDisks disks;

    private final ContainerProcesses processes;

    RuncSandbox(ContainerProperties properties, OciRuntime runtime, RootfsCatalog rootfs, Path init,
            String cgroupRoot, boolean swapAccounted, InstanceNetwork network, PortForwarder forwarder) {
        this.network = network;
        this.forwarder = forwarder;
        this.disks = new InstanceDisks(properties.diskDir());
        this.processes = new ContainerProcesses(properties);
        this.properties = properties;
        this.runtime = runtime;
        this.rootfs = rootfs;
        this.init = init;
        this.cgroupRoot = cgroupRoot;
        this.swapAccounted = swapAccounted;
    }

    @Override
    public void prepare(SandboxedInstance instance) throws IOException {
        Lower lower = rootfs.lower(instance.definition().rootfs());
        Files.createDirectories(instance.app());
        Path layer = disks.mount(instance) ? instance.app().resolve(InstanceDisks.LAYER) : instance.root().resolve("layer");
        own(instance.app(), instance.definition());
        Path upper = Files.createDirectories(layer.resolve("upper"));
        Path work = Files.createDirectories(layer.resolve("work"));
        Path mountPoint = Files.createDirectories(bundle(instance).resolve("rootfs"));
        Commands.run("mount", "-t", "overlay", "overlay", "-o",
                "lowerdir=" + lower.dir() + ",upperdir=" + upper + ",workdir=" + work, mountPoint.toString());
        InstanceNetwork.Attached net = network.attach(bundle(instance), id(instance));
        forward(instance, net);
        if (!instance.definition().action().isPlainRun()) {
            writeConfig(instance, lower, processes.idle(init != null));
            runtime.create(bundle(instance), id(instance), bundle(instance).resolve("init.pid"), instance.stdout(),
                    instance.stderr());
        }
    }

    @Override
    public Launched launch(SandboxedInstance instance, RunAction action, Map<String, String> env, Role role)
            throws IOException {
        Lower lower = rootfs.lower(instance.definition().rootfs());
        String cwd = ContainerProcesses.cwd(action);
        ContainerProcesses.requireExecutable(lower, instance, action.path(), cwd, env);
        Path bundle = bundle(instance);
        if (role == Role.MAIN) {
            List<String> args = new ArrayList<>();
            if (init != null) {
                args.addAll(List.of(BundleConfig.INIT, "--"));
            }
            args.add(action.path());
            args.addAll(action.args());
            writeConfig(instance, lower, processes.spec(args, env, cwd, action));
            OciRuntime.Started started = runtime.run(bundle, id(instance), bundle.resolve("init.pid"),
                    instance.stdout(), instance.stderr());
            return new Launched(started.process(), started.pid());
        }
        long n = execs.incrementAndGet();
        List<String> args = new ArrayList<>(List.of(action.path()));
        args.addAll(action.args());
        Path processJson = bundle.resolve("process-" + n + ".json");
        Files.writeString(processJson, Json.write(BundleConfig.process(processes.spec(args, env, cwd, action))));
        try {
            OciRuntime.Started started = runtime.exec(id(instance), processJson, bundle.resolve("exec-" + n + ".pid"),
                    instance.stdout(), instance.stderr());
            return new Launched(started.process(), started.pid());
        } finally {
            Files.deleteIfExists(processJson);
        }
    }

    @Override
    public void adopted(SandboxedInstance instance) {
        network.find(bundle(instance), id(instance)).ifPresent(net -> {
            try {
                forward(instance, net);
            } catch (IOException e) {
                log.warn("adopt-port-forwarding-failed instance_guid={}: {}", instance.instanceGuid(), e.getMessage());
            }
        });
    }

    @Override
    public void close() {
        forwarder.close();
        RuntimeCgroups.removeEmpty(cgroupRoot);
    }

    private void forward(SandboxedInstance instance, InstanceNetwork.Attached net) throws IOException {
        for (PortMapping port : instance.netInfo().ports()) {
            forwarder.open(port.hostPort(), new InetSocketAddress(net.address(), port.containerPort()));
        }
    }

    /** What the rep downloaded belongs to the instance's user, as /app does, so that it may change it. */
    @Override
    public void downloaded(SandboxedInstance instance) throws IOException {
        int uid = (int) Files.getAttribute(instance.app(), "unix:uid");
        int gid = (int) Files.getAttribute(instance.app(), "unix:gid");
        try (var files = Files.walk(instance.app())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (file.startsWith(instance.app().resolve(InstanceDisks.LAYER))) {
                    continue;
                }
                Files.setAttribute(file, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(file, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    /** The instance's disk stays mounted until it is forgotten: a task's result file is read after its end. */
    @Override
    public void forgotten(SandboxedInstance instance) {
        disks.unmount(instance);
    }

    @Override
    public void actionsEnded(SandboxedInstance instance) {
        runtime.delete(id(instance));
    }

    @Override
    public void release(SandboxedInstance instance) {
        runtime.delete(id(instance));
        instance.netInfo().ports().forEach(port -> forwarder.close(port.hostPort()));
        Path bundle = bundle(instance);
        network.detach(bundle, id(instance));
        Path mountPoint = bundle.resolve("rootfs");
        if (Files.isDirectory(mountPoint)) {
            Commands.quietly("umount", mountPoint.toString());
        }
        try {
            for (String name : List.of("config.json", "init.pid")) {
                Files.deleteIfExists(bundle.resolve(name));
            }
            try (var left = Files.list(bundle)) {
                for (Path file : left.filter(f -> f.getFileName().toString().endsWith(".pid")).toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(mountPoint);
            Files.deleteIfExists(bundle);
        } catch (IOException e) {
            log.warn("remove-bundle-failed instance_guid={} bundle={}: {}", instance.instanceGuid(), bundle,
                    e.getMessage());
        }
    }

    @Override
    public InetSocketAddress checkAddress(SandboxedInstance instance, PortMapping port) {
        return network.find(bundle(instance), id(instance))
                .map(net -> new InetSocketAddress(net.address(), port.containerPort()))
                .orElse(new InetSocketAddress(InetAddress.getLoopbackAddress(), port.hostPort()));
    }

    /** In its own network namespace an instance listens on its container port; the rep forwards the host port. */
    @Override
    public Map<String, String> environment(SandboxedInstance instance) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", BundleConfig.APP);
        if (!instance.netInfo().ports().isEmpty()) {
            env.put("PORT", Integer.toString(instance.netInfo().ports().get(0).containerPort()));
        }
        network.find(bundle(instance), id(instance))
                .ifPresent(net -> env.put("DROVER_INSTANCE_INTERNAL_IP", net.address()));
        return env;
    }

    private Path bundle(SandboxedInstance instance) {
        return properties.bundleDir().resolve(instance.cellName()).resolve(instance.safeGuid());
    }

    /** The runtime's id of an instance's container: unique per rep machine, as cell ids are. */
    static String id(SandboxedInstance instance) {
        return instance.cellName() + "--" + instance.safeGuid();
    }

    private void writeConfig(SandboxedInstance instance, Lower lower, ProcessSpec process) throws IOException {
        DesiredLrpDefinition d = instance.definition();
        List<Bind> binds = new ArrayList<>(lower.binds());
        binds.add(new Bind(instance.app().toString(), BundleConfig.APP, false));
        if (init != null) {
            binds.add(new Bind(init.toString(), BundleConfig.INIT, true));
        }
        if (disks.mounted(instance)) {
            // the writable layer shares the instance's disk with /app; the instance sees an empty, read-only directory
            binds.add(new Bind(properties.diskDir().resolve(InstanceDisks.EMPTY).toString(),
                    BundleConfig.APP + "/" + InstanceDisks.LAYER, true));
        }
        String hostname = instance.safeGuid().length() > 63 ? instance.safeGuid().substring(0, 63)
                : instance.safeGuid();
        BundleConfig.Spec spec = new BundleConfig.Spec(hostname, process, binds,
                cgroupRoot + "/" + instance.cellName() + "/" + instance.safeGuid(),
                Math.max(0, d.memoryMb()) * 1024L * 1024L, swapAccounted,
                CgroupLimits.of(d.memoryMb(), d.cpuWeight(), d.maxPids()).shares(), Math.max(0, d.maxPids()),
                network.find(bundle(instance), id(instance)).map(InstanceNetwork.Attached::namespacePath)
                        .orElse(null));
        Files.writeString(bundle(instance).resolve("config.json"), Json.write(BundleConfig.config(spec)));
    }

    /** /app belongs to whom a plain run runs as (a composite action's steps run as the default user, or their own). */
    private void own(Path dir, DesiredLrpDefinition definition) throws IOException {
        int[] user = processes.user(definition.action().isPlainRun() ? definition.action().run().user() : null);
        Files.setAttribute(dir, "unix:uid", user[0], LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(dir, "unix:gid", user[1], LinkOption.NOFOLLOW_LINKS);
    }
}
