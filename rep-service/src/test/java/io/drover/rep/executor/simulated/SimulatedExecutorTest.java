package io.drover.rep.executor.simulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.InsufficientResourcesException;
import io.drover.rep.executor.UsageChanges;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SimulatedExecutorTest {

    private final SimulatedExecutorFactory factory = new SimulatedExecutorFactory(SimulatedProperties.instant());
    private final Executor executor = factory.create("cell-a", "10.0.0.7", new Resources(1024, 1024, 3));
    private final Queue<ContainerEvent> events = new ConcurrentLinkedQueue<>();

    {
        executor.addListener(events::add);
    }

    @AfterEach
    void close() {
        factory.close();
    }

    @Test
    void containersTurnRunningWithTheirOwnHostPorts() {
        executor.run(spec("g1", 0, 256));
        executor.run(spec("g2", 1, 256));

        await().until(() -> events.size() == 2);
        assertThat(events).allMatch(e -> e.container().state() == ContainerState.RUNNING);
        assertThat(executor.containers()).extracting(c -> c.netInfo().ports().get(0).hostPort()).doesNotHaveDuplicates()
                .allMatch(p -> p >= 61000);
        assertThat(executor.containers()).allMatch(c -> c.netInfo().address().equals("10.0.0.7"));
    }

    @Test
    void refusesWhatDoesNotFitAndSaysWhy() {
        executor.run(spec("g1", 0, 1000));

        assertThatThrownBy(() -> executor.run(spec("g2", 1, 100))).isInstanceOf(InsufficientResourcesException.class)
                .hasMessage("insufficient resources: memory");
    }

    @Test
    void aCrashIsReportedWithItsReasonAndFreesTheResources() {
        executor.run(spec("g1", 0, 1000));
        await().until(() -> state("g1") == ContainerState.RUNNING);

        ((SimulatedExecutor) executor).crash("g1", "exited with status 3");

        await().until(() -> state("g1") == ContainerState.CRASHED);
        assertThat(executor.container("g1")).get().extracting(Container::reason).isEqualTo("exited with status 3");
        executor.run(spec("g2", 1, 1000));
        executor.forget("g1");
        assertThat(executor.container("g1")).isEmpty();
    }

    @Test
    void aStoppedContainerNeverTurnsRunning() {
        SimulatedExecutorFactory slow = new SimulatedExecutorFactory(new SimulatedProperties(Duration.ofMillis(200),
                Duration.ZERO, 0, Duration.ofMinutes(1), Duration.ZERO, 1, 61000, 65535, 1));
        Executor cell = slow.create("cell-b", "10.0.0.8", new Resources(1024, 1024, 3));
        cell.run(spec("g1", 0, 10));

        cell.stop("g1", Duration.ofSeconds(10));

        await().until(() -> cell.container("g1").orElseThrow().state() == ContainerState.STOPPED);
        slow.close();
    }

    @Test
    void theFactoryHandsARecreatedRepTheSameContainers() {
        executor.run(spec("g1", 0, 10));
        executor.close();

        Executor again = factory.create("cell-a", "10.0.0.7", new Resources(1024, 1024, 3));

        assertThat(again.adopt()).extracting(Container::instanceGuid).containsExactly("g1");
    }

    @Test
    void aThousandCellsOfAHundredContainersRunOnTwoSharedThreads() {
        long schedulerThreadsBefore = schedulerThreads();
        SimulatedExecutorFactory big = new SimulatedExecutorFactory(new SimulatedProperties(Duration.ofMillis(50),
                Duration.ofMillis(50), 0, Duration.ofMinutes(1), Duration.ZERO, 2, 61000, 65535, 1));
        AtomicInteger running = new AtomicInteger();
        long started = System.nanoTime();
        for (int cell = 0; cell < 1000; cell++) {
            Executor e = big.create("cell-" + cell, "10.0.0.1", new Resources(100_000, 100_000, 100));
            e.addListener(ev -> running.incrementAndGet());
            for (int i = 0; i < 100; i++) {
                e.run(spec("c" + cell + "-" + i, i, 64));
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> running.get() == 100_000);
        System.out.printf("simulated: 100000 containers on 1000 cells RUNNING in %d ms%n",
                (System.nanoTime() - started) / 1_000_000);
        assertThat(schedulerThreads() - schedulerThreadsBefore).isLessThanOrEqualTo(2);
        big.close();
    }

    /** Counted by name: other threads of the JVM (Awaitility's poller, other tests) come and go. */
    private static long schedulerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("simulated-containers-")).count();
    }

    private ContainerState state(String guid) {
        return executor.container(guid).map(Container::state).orElse(null);
    }

    @Test
    void usageChangesAreWhatStartedAndEndedSinceTheLastAskEveryRunningOneTheFirstTime() {
        executor.run(spec("g1", 0, 256));
        await().until(() -> events.size() == 1);

        UsageChanges first = executor.usageChanges();
        assertThat(executor.steadyUsage()).isTrue();
        assertThat(first.started()).extracting(u -> u.instanceGuid()).containsExactly("g1");
        assertThat(first.running()).isEqualTo(1);

        executor.run(spec("g2", 1, 256));
        await().until(() -> events.size() == 2);
        ((SimulatedExecutor) executor).crash("g1", "test");
        UsageChanges second = executor.usageChanges();
        assertThat(second.started()).extracting(u -> u.instanceGuid()).containsExactly("g2");
        assertThat(second.ended()).containsExactly("g1");
        assertThat(second.running()).isEqualTo(1);

        UsageChanges quiet = executor.usageChanges();
        assertThat(quiet.started()).as("g2 runs on: nothing to say about it").isEmpty();
        assertThat(quiet.ended()).isEmpty();
        assertThat(quiet.running()).isEqualTo(1);
    }

    @Test
    void anExecutorWhoseLrpsMayCarryASimulatedLoadIsMeasuredEveryRoundNotSteady() {
        SimulatedExecutorFactory loaded = new SimulatedExecutorFactory(SimulatedProperties.instant(),
                java.time.Clock.systemUTC(), new SimulatedLoad(java.util.Map.of("ap", 300.0)));
        try {
            assertThat(loaded.create("cell-a", "10.0.0.7", new Resources(1024, 1024, 3)).steadyUsage())
                    .as("its figures move with the load and with the LRP's other containers").isFalse();
        } finally {
            loaded.close();
        }
    }

    @Test
    void aSimulatedLoadSetWhileRunningMakesTheExecutorMeasured() {
        SimulatedLoad load = new SimulatedLoad(java.util.Map.of());
        SimulatedExecutorFactory loaded = new SimulatedExecutorFactory(SimulatedProperties.instant(),
                java.time.Clock.systemUTC(), load);
        try {
            Executor a = loaded.create("cell-a", "10.0.0.7", new Resources(1024, 1024, 3));
            assertThat(a.steadyUsage()).isTrue();
            load.setCpu("app", 60);
            assertThat(a.steadyUsage()).isFalse();
        } finally {
            loaded.close();
        }
    }

    @Test
    void anLrpsSimulatedLoadIsSharedByItsRunningContainersAcrossCells() {
        SimulatedLoad load = new SimulatedLoad(java.util.Map.of("ap", 300.0));
        SimulatedExecutorFactory loaded = new SimulatedExecutorFactory(SimulatedProperties.instant(),
                java.time.Clock.systemUTC(), load);
        try {
            Executor a = loaded.create("cell-a", "10.0.0.7", new Resources(1024, 1024, 3));
            Executor b = loaded.create("cell-b", "10.0.0.8", new Resources(1024, 1024, 3));
            a.run(spec("g1", 0, 10));
            await().until(() -> cpu(a, b).equals(List.of(300.0)));
            b.run(spec("g2", 1, 10));
            a.run(spec("g3", 2, 10));
            await().until(() -> cpu(a, b).equals(List.of(100.0, 100.0, 100.0)));

            load.setCpu("app", 60); // the longer prefix wins
            assertThat(cpu(a, b)).containsOnly(20.0);
            ((SimulatedExecutor) a).crash("g1", "gone");
            await().until(() -> cpu(a, b).equals(List.of(30.0, 30.0)));
        } finally {
            loaded.close();
        }
    }

    @Test
    void anLrpWithoutASimulatedLoadReportsAFewPercent() {
        executor.run(spec("g1", 0, 100));
        await().until(() -> executor.usage().size() == 1);
        assertThat(executor.usage().get(0).cpuPercent()).isBetween(0.2, 5.0);
    }

    private static List<Double> cpu(Executor... executors) {
        return java.util.Arrays.stream(executors).flatMap(e -> e.usage().stream())
                .map(io.drover.rep.executor.ContainerUsage::cpuPercent).sorted().toList();
    }

    static ContainerSpec spec(String guid, int index, int memoryMb) {
        return new ContainerSpec(ActualLrpKey.of("app", index), guid, new DesiredLrpDefinition("app", "d",
                "preloaded:host", 3, new Action(new RunAction("sleep", List.of("100"), null, null, null)), null, null,
                0, null, List.of(8080), memoryMb, 10, 0, 0, null, null, null, null, null));
    }
}
