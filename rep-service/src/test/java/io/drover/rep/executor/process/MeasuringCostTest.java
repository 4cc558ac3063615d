package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import io.drover.test.MutableClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/**
 * The budget: watching and measuring 100 instances of a cell costs the rep well under 1 % of a core. The
 * watcher's tick and the usage round are driven by hand on this thread, with the clock moved by hand, so their CPU
 * time is measured exactly and warm (as in a rep that has run for a minute), whatever else the machine is doing. A
 * second of a rep with production settings is one sampling tick, nine idle ticks and a fifth of a usage round (which
 * walks each instance directory every 30 s).
 */
class MeasuringCostTest {

    static final int INSTANCES = 100;

    static final Duration USAGE_INTERVAL = Duration.ofSeconds(5);

    @TempDir
    Path workDir;

    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    final MutableClock clock = MutableClock.startingNow();

    ProcessExecutorFactory factory;

    ProcessExecutor executor;

    @AfterEach
    void tearDown() {
        if (executor != null) {
            executor.watcher().start();
            executor.containers().forEach(c -> executor.stop(c.instanceGuid(), Duration.ZERO));
            await().atMost(Duration.ofSeconds(60)).until(() -> executor.containers().stream()
                    .allMatch(c -> c.state() == ContainerState.STOPPED));
            executor.containers().forEach(c -> executor.forget(c.instanceGuid()));
            executor.close();
        }
        if (factory != null) {
            factory.close();
        }
    }

    @Test
    void watchingAndMeasuringAHundredInstancesCostsWellUnderOnePercentOfACore() {
        factory = new ProcessExecutorFactory(new ProcessExecutorProperties(workDir, "62000-62999",
                Duration.ofSeconds(10), DataSize.ofMegabytes(10), Duration.ofMillis(500), Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofSeconds(10), List.of("PATH"), 4, IsolationSetting.AUTO,
                ExecutorHarness.CGROUP_ROOT), clock);
        Assumptions.assumeTrue(factory.cgroups().isPresent(), "cgroups cannot be used here (needs root)");
        executor = factory.create("cost-cell", "127.0.0.1", new Resources(100_000, 100_000, INSTANCES));
        List<ContainerSpec> specs = IntStream.range(0, INSTANCES)
                .mapToObj(i -> Specs.command("sleep", "1000").memoryMb(16).index(i).build()).toList();
        specs.forEach(executor::run);
        await().atMost(Duration.ofSeconds(120)).until(() -> executor.containers().stream()
                .filter(c -> c.state() == ContainerState.RUNNING).count() == INSTANCES);
        TreeWatcher watcher = executor.watcher();
        watcher.close();
        for (int i = 0; i < 300; i++) {
            sampleTick(watcher);
            executor.usage();
        }

        double sampleTick = cpuNanosPer(200, () -> sampleTick(watcher));
        double idleTick = cpuNanosPer(2000, watcher::tick);
        double usageRound = cpuNanosPer(60, () -> {
            clock.advance(USAGE_INTERVAL);
            executor.usage();
        });

        double perSecond = sampleTick + 9 * idleTick + usageRound / USAGE_INTERVAL.toSeconds();
        System.out.printf("measuring-cost instances=%d sample-tick=%.3f ms idle-tick=%.4f ms usage-round=%.3f ms "
                + "=> %.3f ms per second = %.3f %% of a core%n", INSTANCES, sampleTick / 1e6, idleTick / 1e6,
                usageRound / 1e6, perSecond / 1e6, perSecond / 1e7);
        assertThat(executor.usage()).hasSize(INSTANCES).allMatch(u -> u.memoryBytes() > 0 && u.diskBytes() > 0);
        assertThat(perSecond / 1e7).as("percent of one core").isLessThan(0.5);
    }

    private void sampleTick(TreeWatcher watcher) {
        clock.advance(Duration.ofSeconds(1));
        watcher.tick();
    }

    private double cpuNanosPer(int times, Runnable work) {
        long before = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < times; i++) {
            work.run();
        }
        return (threads.getCurrentThreadCpuTime() - before) / (double) times;
    }
}
