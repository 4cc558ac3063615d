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
import io.drover.rep.executor.Executor;
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
 * The executor of one cell that runs containers as real OS process trees (SPEC 8.2). {@link #run} admits a container
 * (capacity, host ports) and returns; the launch, health polling ({@link HealthPoller}), tree watching and stopping
 * ({@link TreeWatcher}) happen on the shared scheduler and surface as events. Containers live under
 * {@code <work-dir>/<cell>/}, where {@link #adopt} finds the pid files of a previous run.
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

    private final HealthPoller health;

    private final ActionTree actions;

    ProcessExecutor(String cellId, String address, Resources capacity, ProcessRuntime runtime) {
        this.cellId = cellId;
        this.address = address;
        this.capacity = capacity;
        this.runtime = runtime;
        this.cellDir = runtime.properties().workDir().resolve(InstanceDir.safeName(cellId));
        this.watcher = new TreeWatcher(runtime, containers::values);
        this.health = new HealthPoller(runtime, new HealthProbe(runtime.launcher(),
                runtime.properties().monitorTimeout(), this::environment), watcher);
        this.actions = new ActionTree(runtime, new Downloads(runtime.properties().workDir()),
                new ProgressLines(runtime.clock()), this::environment);
        watcher.start();
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
            container = new ProcessContainer(spec, cellId,
                    InstanceDir.of(cellDir, spec.instanceGuid()), new NetInfo(address, mappings),
                    runtime.clock().instant(), this::publish);
            containers.put(spec.instanceGuid(), container);
        }
        log.info("run-container instance_guid={} process_guid={} index={} ports={}", spec.instanceGuid(),
                spec.key().processGuid(), spec.key().index(), container.netInfo().ports());
        container.publishCurrent();
        runtime.scheduler().execute(() -> {
            if (action.isPlainRun()) {
                launch(container, action.run());
            } else {
                actions.launch(container, action, this::started, (c, reason) -> watcher.terminate(c,
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
        try {
            container.dir().delete();
        } catch (UncheckedIOException e) {
            log.warn("delete-instance-dir-failed instance_guid={}", instanceGuid, e);
        }
    }

    /** Reads from the container's {@code app/} directory, which must hold the path (no escaping it by .. or links). */
    @Override
    public Optional<String> readFile(String instanceGuid, String path, int maxBytes) {
        ProcessContainer container = containers.get(instanceGuid);
        return container == null ? Optional.empty() : InstanceFiles.readHead(container.dir().app(), path, maxBytes);
    }

    @Override
    public void addListener(ContainerListener listener) {
        listeners.add(listener);
    }

    @Override
    public List<Container> adopt() {
        List<ProcessContainer> adopted = new Adoption(runtime, cellDir, containers.keySet()).run(this::publish);
        adopted.forEach(container -> {
            containers.put(container.spec().instanceGuid(), container);
            if (HealthProbe.hasChecks(container.spec().definition())) {
                health.watch(container);
            } else {
                container.markRunning();
            }
        });
        return adopted.stream().map(ProcessContainer::snapshot).toList();
    }

    @Override
    public void close() {
        watcher.close();
        containers.values().forEach(ProcessContainer::cancelHealthPoll);
    }

    private void launch(ProcessContainer container, RunAction action) {
        if (!container.isActive()) {
            container.settleWithoutProcess();
            return;
        }
        Process process;
        try {
            container.dir().create();
            process = runtime.launcher().launch(action, container.spec().definition().cpuWeight(),
                    environment(container, action), container.dir());
        } catch (IOException | RuntimeException e) {
            container.settleWithoutProcess();
            watcher.terminate(container, ContainerState.CRASHED, "failed to start: " + e.getMessage(), Duration.ZERO);
            return;
        }
        ProcessIdentity leader = ProcTable.stat(process.pid()).map(ProcessIdentity::of)
                .orElse(new ProcessIdentity(process.pid(), -1));
        long session = runtime.launcher().usesSessions() ? process.pid() : 0;
        if (!container.attach(process, leader, session)) {
            Signals.kill(ProcTable.read().members(new TreeRoots(leader, session, Set.of())));
            return;
        }
        log.info("container-launched instance_guid={} pid={} session={}", container.spec().instanceGuid(),
                process.pid(), session);
        process.onExit().thenAcceptAsync(exited -> leaderExited(container, exited.exitValue()), runtime.scheduler());
        started(container);
    }

    /** Launched: healthy at once without checks, else once its checks pass. */
    private void started(ProcessContainer container) {
        if (HealthProbe.hasChecks(container.spec().definition())) {
            health.watch(container);
        } else {
            container.markRunning();
        }
    }

    /** Any exit is a crash, except a main process exiting 0 beside a monitor: it daemonised. */
    private void leaderExited(ProcessContainer container, int exitValue) {
        if (!container.isActive()) {
            return;
        }
        if (exitValue == 0 && container.spec().definition().monitor() != null) {
            log.info("container-daemonised instance_guid={}", container.spec().instanceGuid());
            container.markDaemonised();
            return;
        }
        watcher.terminate(container, ContainerState.CRASHED, ExitStatus.describe(exitValue), Duration.ZERO);
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
        return InstanceEnvironment.of(container.spec(), action.env(), container.netInfo(),
                runtime.properties().inheritEnv(), System::getenv);
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
