package io.drover.rep.executor.simulated;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.Resources;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.ExecutorFactory;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the simulated executors of a JVM; they share one small scheduler. Asking again for a cell it already made
 * returns that cell's executor with its containers, which is how a re-created rep "finds the containers it left".
 */
public final class SimulatedExecutorFactory implements ExecutorFactory, AutoCloseable {

    private final SimulatedProperties properties;
    private final ScheduledThreadPoolExecutor scheduler;
    private final Random random;
    private final Clock clock;
    private final SimulatedLoad load;
    private final Map<String, SimulatedExecutor> executors = new ConcurrentHashMap<>();

    public SimulatedExecutorFactory(SimulatedProperties properties) {
        this(properties, Clock.systemUTC());
    }

    public SimulatedExecutorFactory(SimulatedProperties properties, Clock clock) {
        this(properties, clock, new SimulatedLoad(Map.of()));
    }

    /** @param load the load every container of these cells reports (SPEC 17's autoscaler reads it) */
    public SimulatedExecutorFactory(SimulatedProperties properties, Clock clock, SimulatedLoad load) {
        this.properties = properties;
        this.clock = clock;
        this.load = load;
        this.random = properties.seed() == 0 ? new Random() : new Random(properties.seed());
        AtomicInteger threads = new AtomicInteger();
        this.scheduler = new ScheduledThreadPoolExecutor(Math.max(1, properties.schedulerThreads()), r -> {
            Thread t = new Thread(r, "simulated-containers-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Executor create(String cellId, String address, Resources capacity) {
        return executors.computeIfAbsent(cellId,
                id -> new SimulatedExecutor(id, address, capacity, scheduler, properties, random, clock, false, load));
    }

    /** A simulated cell's tasks: containers that run their action abstractly and then end on their own. */
    @Override
    public Executor createForTasks(String cellId, String address, Resources capacity) {
        return executors.computeIfAbsent(cellId + TASKS_SUFFIX,
                id -> new SimulatedExecutor(id, address, capacity, scheduler, properties, random, clock, true, load));
    }

    @Override
    public CellIsolation isolation() {
        return CellIsolation.SIMULATED;
    }

    /** The load these cells' containers report: a benchmark or a test steps it while the cluster runs. */
    public SimulatedLoad load() {
        return load;
    }

    /** The executor of a cell, for tests that crash containers or look inside. */
    public Optional<SimulatedExecutor> executor(String cellId) {
        return Optional.ofNullable(executors.get(cellId));
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
