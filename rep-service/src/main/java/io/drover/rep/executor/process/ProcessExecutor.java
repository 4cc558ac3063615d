package io.drover.rep.executor.process;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerListener;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.InstanceLog;
import io.drover.rep.executor.InsufficientResourcesException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor of one cell that runs containers as real OS process trees (SPEC 8.2), each in a cgroup of its own
 * where the machine allows it. {@link #run} admits a container (capacity, host ports) and returns; the launch
 * ({@link ContainerLaunch}), health polling ({@link HealthPoller}), tree watching and stopping ({@link TreeWatcher}),
 * and copying output to each instance's journal ({@link LogPump}) happen on the shared scheduler and
 * surface as events. Containers live under {@code <work-dir>/<cell>/}, where {@link #adopt} finds the pid files of a
 * previous run (and, in cgroup mode, checks them against the cell's cgroups).
 */
public final class ProcessExecutor implements Executor {

    private static final Logger log = LoggerFactory.getLogger(ProcessExecutor.class);

    private final String cellId;

    private final String address;

    private final Resources capacity;

    private final ProcessRuntime runtime;

    private final Path cellDir;

    private final Map<String, ProcessContainer> containers = new ConcurrentHashMap<>();

    private final List<ContainerListener> listeners = new CopyOnWriteArrayList<>();

    private final TreeWatcher watcher;

    private final ContainerLaunch launch;

    private final UsageSampler usage;

    private final LogPump logs;

    private final ActionTree actions;

    ProcessExecutor(String cellId, String address, Resources capacity, ProcessRuntime runtime) {
        this.cellId = cellId;
        this.address = address;
        this.capacity = capacity;
        this.runtime = runtime;
        this.cellDir = runtime.properties().workDir().resolve(InstanceDir.safeName(cellId));
        this.watcher = new TreeWatcher(runtime, containers::values);
        HealthPoller health = new HealthPoller(runtime, new HealthProbe(runtime.sandbox(),
                runtime.properties().monitorTimeout(), this::environment), watcher);
        this.launch = new ContainerLaunch(runtime, watcher, health, this::environment);
        this.actions = new ActionTree(runtime, new Downloads(runtime.properties().workDir()), new ProgressLines(),
                this::environment);
        this.usage = new UsageSampler(runtime.clock());
        watcher.start();
        this.logs = new LogPump(runtime, containers::values);
        logs.start();
    }

    @Override
    public void run(ContainerSpec spec) {
        Action action = spec.definition().action();
        if (action == null || action.kind() == null || action.isPlainRun() && action.run().path() == null) {
            throw new IllegalArgumentException("container " + spec.instanceGuid() + " has no action to run");
        }
        ProcessContainer container;
        synchronized (containers) {
            if (containers.containsKey(spec.instanceGuid())) {
                return;
            }
            requireCapacity(spec.definition());
            List<Integer> hostPorts = runtime.ports().reserve(spec.definition().ports().size());
            List<PortMapping> mappings = IntStream.range(0, hostPorts.size())
                    .mapToObj(i -> new PortMapping(spec.definition().ports().get(i), hostPorts.get(i))).toList();
            InstanceDir dir = InstanceDir.of(cellDir, spec.instanceGuid());
            container = new ProcessContainer(new PlacedInstance(spec, cellId, new NetInfo(address, mappings),
                    runtime.clock().instant(), dir,
                    new InstanceJournal(dir, runtime.clock(), runtime.properties().logCap().toBytes()),
                    runtime.isolation().cgroupFor(cellName(), spec.instanceGuid())), this::publish);
            containers.put(spec.instanceGuid(), container);
        }
        container.instance().journal().rep("claimed by " + cellId + " as instance " + spec.instanceGuid()
                + "; starting");
        log.info("run-container instance_guid={} process_guid={} index={} ports={}", spec.instanceGuid(),
                spec.key().processGuid(), spec.key().index(), container.instance().netInfo().ports());
        container.publishCurrent();
        runtime.scheduler().execute(() -> {
            if (action.isPlainRun()) {
                launch.launch(container, action.run());
            } else {
                actions.launch(container, action, launch::watchUntilRunning, (c, reason) -> watcher.terminate(c,
                        ContainerState.CRASHED, reason, Duration.ZERO));
            }
        });
    }

    @Override
    public void stop(String instanceGuid, Duration grace) {
        ProcessContainer container = containers.get(instanceGuid);
        if (container == null || container.stopCrashed()) {
            return;
        }
        watcher.terminate(container, ContainerState.STOPPED, null,
                grace == null ? runtime.properties().stopGrace() : grace);
    }

    @Override
    public List<Container> containers() {
        return containers.values().stream().map(ProcessContainer::snapshot).toList();
    }

    @Override
    public Optional<Container> container(String instanceGuid) {
        return Optional.ofNullable(containers.get(instanceGuid)).map(ProcessContainer::snapshot);
    }

    @Override
    public void forget(String instanceGuid) {
        ProcessContainer container = containers.get(instanceGuid);
        if (container == null || !container.isTerminal()) {
            return;
        }
        containers.remove(instanceGuid);
        container.instance().cgroup().filter(cgroup -> !cgroup.remove())
                .ifPresent(cgroup -> log.warn("remove-cgroup-failed instance_guid={} dirs={}", instanceGuid,
                        cgroup.dirs()));
        container.instance().journal().close();
        runtime.sandbox().forgotten(container.instance().sandboxed());
        try {
            container.instance().dir().delete();
        } catch (UncheckedIOException e) {
            log.warn("delete-instance-dir-failed instance_guid={}", instanceGuid, e);
        }
    }

    /** Reads from the container's {@code app/} directory, which must hold the path (no escaping it by .. or links). */
    @Override
    public Optional<String> readFile(String instanceGuid, String path, int maxBytes) {
        ProcessContainer container = containers.get(instanceGuid);
        return container == null ? Optional.empty() : InstanceFiles.readHead(container.instance().dir().app(), path,
                maxBytes);
    }

    @Override
    public Optional<InstanceLog> log(String instanceGuid) {
        return Optional.ofNullable(containers.get(instanceGuid)).map(c -> c.instance().journal());
    }

    @Override
    public void addListener(ContainerListener listener) {
        listeners.add(listener);
    }

    @Override
    public List<Container> adopt() {
        List<ProcessContainer> adopted = new Adoption(runtime, cellDir, cellName(), containers.keySet())
                .run(this::publish);
        adopted.forEach(container -> {
            containers.put(container.spec().instanceGuid(), container);
            launch.watchUntilRunning(container);
        });
        return adopted.stream().map(ProcessContainer::snapshot).toList();
    }

    /** The executor's watcher, for tests that measure what its ticks cost. */
    TreeWatcher watcher() {
        return watcher;
    }

    @Override
    public List<ContainerUsage> usage() {
        return usage.measure(containers.values());
    }

    /** Leaves the processes running; the cell's cgroup goes too when none of its instances is left. */
    @Override
    public void close() {
        watcher.close();
        logs.close();
        containers.values().forEach(ProcessContainer::cancelHealthPoll);
        runtime.isolation().cgroups().ifPresent(cgroups -> cgroups.removeCellIfEmpty(cellName()));
    }

    private String cellName() {
        return InstanceDir.safeName(cellId);
    }

    private void requireCapacity(DesiredLrpDefinition definition) {
        if (capacity == null) {
            return;
        }
        Resources used = containers.values().stream().filter(c -> !c.isTerminal())
                .map(c -> need(c.spec().definition())).reduce(Resources.NONE, Resources::plus);
        Resources free = capacity.minus(used);
        if (!free.fits(need(definition))) {
            throw new InsufficientResourcesException("cell cannot fit " + need(definition) + ", free " + free);
        }
    }

    private static Resources need(DesiredLrpDefinition definition) {
        return new Resources(definition.memoryMb(), definition.diskMb(), 1);
    }

    private Map<String, String> environment(ProcessContainer container, RunAction action) {
        Map<String, String> env = InstanceEnvironment.of(container.spec(), action.env(),
                container.instance().netInfo(), runtime.properties().inheritEnv(), System::getenv);
        env.putAll(runtime.sandbox().environment(container.instance().sandboxed()));
        return env;
    }

    private void publish(Container container) {
        ContainerEvent event = new ContainerEvent(container);
        for (ContainerListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                log.warn("container-listener-failed instance_guid={}", container.instanceGuid(), e);
            }
        }
    }
}
