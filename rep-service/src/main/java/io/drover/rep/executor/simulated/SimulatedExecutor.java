package io.drover.rep.executor.simulated;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.NetInfo;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerListener;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.InsufficientResourcesException;
import io.drover.rep.executor.RunOnce;
import io.drover.rep.executor.UsageChanges;
import io.drover.rep.executor.InstanceLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The containers of one simulated cell, in memory. Start, crash and stop are timers on a scheduler shared by every
 * cell of the JVM, so a container costs a small object and at most one pending timer, never a thread. Capacity
 * (memory, disk, container slots, host ports) is enforced exactly like a real cell would. The executor of a cell's
 * tasks ({@code runOnce}) ends each container once its action has run, abstractly ({@link SimulatedActions}).
 */
public final class SimulatedExecutor implements Executor {

    private static final Logger log = LoggerFactory.getLogger(SimulatedExecutor.class);

    private final String cellId;
    private final String address;
    private final Resources capacity;
    private final ScheduledExecutorService scheduler;
    private final SimulatedProperties properties;
    private final Random random;
    private final Clock clock;
    private final HostPorts hostPorts;
    private final boolean runOnce;
    private final SimulatedLoad load;
    private final Map<String, SimulatedContainer> containers = new ConcurrentHashMap<>();
    private final List<ContainerListener> listeners = new CopyOnWriteArrayList<>();
    private Resources used = Resources.NONE;
    private final SteadyUsage steady = new SteadyUsage();

    SimulatedExecutor(String cellId, String address, Resources capacity, ScheduledExecutorService scheduler,
            SimulatedProperties properties, Random random, Clock clock, boolean runOnce, SimulatedLoad load) {
        this.runOnce = runOnce;
        this.load = load;
        this.clock = clock;
        this.cellId = cellId;
        this.address = address;
        this.capacity = capacity;
        this.scheduler = scheduler;
        this.properties = properties;
        this.random = random;
        this.hostPorts = new HostPorts(properties.firstHostPort(), properties.lastHostPort());
    }

    @Override
    public void run(ContainerSpec spec) {
        SimulatedContainer container;
        synchronized (this) {
            if (containers.containsKey(spec.instanceGuid())) {
                return;
            }
            Resources need = needOf(spec.definition());
            String lacking = lacking(capacity.minus(used), need);
            if (!lacking.isEmpty()) {
                throw new InsufficientResourcesException("insufficient resources: " + lacking);
            }
            container = new SimulatedContainer(spec, need, netInfo(spec.definition()), cellId, clock.instant());
            used = used.plus(need);
            containers.put(spec.instanceGuid(), container);
        }
        schedule(container, startDelay(), () -> becomeRunning(container));
    }

    @Override
    public void stop(String instanceGuid, Duration grace) {
        SimulatedContainer container = containers.get(instanceGuid);
        if (container == null || container.isOver()) {
            return;
        }
        Duration delay = properties.stopLatency().compareTo(grace) > 0 ? grace : properties.stopLatency();
        container.stopRequested = true;
        schedule(container, delay, () -> finish(container, ContainerState.STOPPED, null));
    }

    /** Crashes a container now, as if its process had died: for tests and fault injection. */
    public void crash(String instanceGuid, String reason) {
        SimulatedContainer container = containers.get(instanceGuid);
        if (container != null) {
            finish(container, ContainerState.CRASHED, reason);
        }
    }

    @Override
    public List<Container> containers() {
        List<Container> views = new ArrayList<>(containers.size());
        containers.values().forEach(c -> views.add(c.view()));
        return views;
    }

    @Override
    public Optional<Container> container(String instanceGuid) {
        return Optional.ofNullable(containers.get(instanceGuid)).map(SimulatedContainer::view);
    }

    @Override
    public void forget(String instanceGuid) {
        containers.computeIfPresent(instanceGuid, (guid, c) -> c.isOver() ? null : c);
    }

    /** A simulated task writes its result file empty: an existing container has one at any path inside it. */
    @Override
    public Optional<String> readFile(String instanceGuid, String path, int maxBytes) {
        return containers.containsKey(instanceGuid) ? Optional.of("") : Optional.empty();
    }

    @Override
    public Optional<InstanceLog> log(String instanceGuid) {
        return Optional.ofNullable(containers.get(instanceGuid)).map(SimulatedLog::new);
    }

    @Override
    public void addListener(ContainerListener listener) {
        listeners.add(listener);
    }

    /**
     * Constant figures per container (derived from its guid), so a sampling round rewrites nothing that exists, and
     * asks only what started and ended ({@link #usageChanges()}); the CPU of an LRP given a simulated load is its share
     * of that load ({@link SimulatedLoad}).
     */
    @Override
    public List<ContainerUsage> usage() {
        List<ContainerUsage> usage = new ArrayList<>();
        for (SimulatedContainer container : containers.values()) {
            Instant since = container.runningSince();
            if (since != null) {
                Double cpu = load.cpuPercent(container.spec.key().processGuid());
                usage.add(SimulatedUsage.of(container.spec, since, cpu));
            }
        }
        return usage;
    }

    /**
     * Steady while no simulated load is set in this JVM: an LRP's share of a load moves whenever the load or its number
     * of containers does, so with a load every round measures every container (P9's 1,000 LRPs, not the million). A
     * load set while running switches to measuring from the next round; a container that ended just before is then
     * removed from the usage table by the next full round.
     */
    @Override
    public boolean steadyUsage() {
        return load.isEmpty();
    }

    @Override
    public UsageChanges usageChanges() {
        return steady.drain(this::usage);
    }

    /** In-memory containers outlive the rep that started them only inside this JVM: a re-created rep gets them back. */
    @Override
    public List<Container> adopt() {
        return containers();
    }

    /** Detaches the listeners of the rep that is going away; the containers keep running (and can be adopted). */
    @Override
    public void close() {
        listeners.clear();
    }

    public String cellId() {
        return cellId;
    }

    /** Resources held by live containers. */
    public synchronized Resources used() {
        return used;
    }

    private void becomeRunning(SimulatedContainer container) {
        Instant now = clock.instant();
        synchronized (container) {
            if (!container.moveTo(ContainerState.RUNNING, null, now)) {
                return;
            }
            steady.started(SimulatedUsage.of(container.spec, now));
        }
        if (!runOnce) {
            load.started(container.spec.key().processGuid());
        }
        publish(container);
        if (runOnce) {
            SimulatedActions.Ending ending = SimulatedActions.run(container.spec.definition().action(),
                    properties.taskStep());
            schedule(container, ending.took(), () -> finish(container, ContainerState.CRASHED,
                    ending.succeeded() ? RunOnce.SUCCEEDED : ending.failure()));
            return;
        }
        if (properties.crashProbability() > 0 && random.nextDouble() < properties.crashProbability()) {
            long windowMs = Math.max(1, properties.crashWindow().toMillis());
            schedule(container, Duration.ofMillis((long) (random.nextDouble() * windowMs)),
                    () -> finish(container, ContainerState.CRASHED, "exited with status 1 (simulated crash)"));
        }
    }

    private void finish(SimulatedContainer container, ContainerState state, String reason) {
        boolean wasRunning;
        synchronized (container) {
            wasRunning = container.runningSince() != null;
            if (!container.moveTo(state, reason, clock.instant())) {
                return;
            }
            if (wasRunning) {
                steady.ended(container.spec.instanceGuid());
            }
        }
        if (wasRunning && !runOnce) {
            load.ended(container.spec.key().processGuid());
        }
        synchronized (this) {
            used = used.minus(container.need);
        }
        container.netInfo.ports().forEach(p -> hostPorts.release(p.hostPort()));
        publish(container);
    }

    private void publish(SimulatedContainer container) {
        ContainerEvent event = new ContainerEvent(container.view());
        for (ContainerListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                log.warn("container-listener-failed cell={} instance_guid={}", cellId, container.spec.instanceGuid(), e);
            }
        }
    }

    private void schedule(SimulatedContainer container, Duration delay, Runnable action) {
        container.cancelPending();
        container.pending = scheduler.schedule(action, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    private Duration startDelay() {
        long jitterMs = properties.startJitter().toMillis();
        long extra = jitterMs > 0 ? (long) (random.nextDouble() * jitterMs) : 0;
        return properties.startLatency().plusMillis(extra);
    }

    private NetInfo netInfo(DesiredLrpDefinition definition) {
        List<NetInfo.PortMapping> mappings = new ArrayList<>();
        for (int containerPort : definition.ports()) {
            OptionalInt hostPort = hostPorts.allocate();
            if (hostPort.isEmpty()) {
                mappings.forEach(m -> hostPorts.release(m.hostPort()));
                throw new InsufficientResourcesException("insufficient resources: host ports");
            }
            mappings.add(new NetInfo.PortMapping(containerPort, hostPort.getAsInt()));
        }
        return new NetInfo(address, mappings);
    }

    static Resources needOf(DesiredLrpDefinition definition) {
        return new Resources(definition.memoryMb(), definition.diskMb(), 1);
    }

    static String lacking(Resources available, Resources need) {
        return available.lacking(need);
    }
}
