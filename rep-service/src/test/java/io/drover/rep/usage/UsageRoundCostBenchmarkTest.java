package io.drover.rep.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedExecutorTestSpecs;
import io.drover.rep.executor.simulated.SimulatedProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What one usage sampling round costs a rep of simulated cells that holds many instances and starts a few (issue 41:
 * {@code UsageRounds.next} was the top Drover method of a million-instance P1). Each round is measured twice over the
 * same cells: as the reporter did before steady usage (every container measured and compared with what was written)
 * and as it does now (the simulated executors asked only what started and ended). Opt-in, as the other benchmarks:
 * {@code -Ddrover.benchmark=true}, with {@code -Ddrover.benchmark.cells=N} (2,000 by default, 100 instances each) and
 * {@code -DargLine=-Xmx4g} for the default compilers and room for a million.
 */
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class UsageRoundCostBenchmarkTest {

    private static final int PER_CELL = 100;

    @Test
    void aRoundCostsWhatStartedNotWhatTheCellsHold() {
        int cells = Integer.getInteger("drover.benchmark.cells", 2_000);
        try (SimulatedExecutorFactory factory = new SimulatedExecutorFactory(SimulatedProperties.instant())) {
            Map<String, Executor> steady = new LinkedHashMap<>();
            Map<String, Executor> measured = new LinkedHashMap<>();
            for (int c = 0; c < cells; c++) {
                Executor executor = factory.create("sim-" + c, "10.0.0.1", new Resources(16_384, 65_536, 256));
                steady.put("sim-" + c, executor);
                measured.put("sim-" + c, new Measured(executor));
            }
            Rounds before = new Rounds(measured);
            Rounds after = new Rounds(steady);
            for (int i = 0; i < PER_CELL; i++) {
                for (int c = 0; c < cells; c++) {
                    steady.get("sim-" + c).run(SimulatedExecutorTestSpecs.spec("g-" + c + "-" + i, i, 64));
                }
                if (i % 10 == 9) { // a round every tenth of the way, as P1 fills the cells
                    before.round();
                    after.round();
                }
            }
            long held = (long) cells * PER_CELL;
            await().atMost(Duration.ofMinutes(2)).until(() -> steady.values().stream()
                    .mapToLong(e -> e.containers().size()).sum() == held);
            for (int i = 0; i < 3; i++) { // quiet rounds: everything runs on
                before.round();
                after.round();
            }
            System.out.printf("usage rounds over %,d simulated instances on %,d cells: before %s; after %s%n", held,
                    cells, before, after);
            assertThat(after.quietMs()).isLessThan(before.quietMs());
        }
    }

    /** The rounds of one reporter, with the CPU of the last ones (quiet: nothing started). */
    private static final class Rounds {

        private final Map<String, Executor> executors;
        private final UsageRounds rounds = new UsageRounds(List::of, Duration.ofHours(1));
        private final UsageMeters meters = new UsageMeters(new SimpleMeterRegistry(), Clock.systemUTC(), 256);
        private Instant now = Instant.parse("2026-12-03T00:00:00Z");
        private final java.util.ArrayList<Double> ms = new java.util.ArrayList<>();

        Rounds(Map<String, Executor> executors) {
            this.executors = executors;
        }

        void round() {
            long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            UsageSample sample = UsageReporter.sample(executors, rounds.fullDue(now));
            meters.update(sample);
            rounds.written(rounds.next(sample, now), now);
            now = now.plusSeconds(5);
            ms.add((ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1e6);
        }

        double quietMs() {
            return ms.subList(ms.size() - 3, ms.size()).stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        }

        @Override
        public String toString() {
            return "%s ms of CPU per round while the cells filled, %.1f ms per quiet round".formatted(ms.subList(0,
                    ms.size() - 3).stream().map(m -> "%.0f".formatted(m)).toList(), quietMs());
        }
    }

    /** The same executor, measured as a process cell's is: how the reporter treated simulated cells before. */
    private record Measured(Executor executor) implements Executor {

        @Override
        public List<ContainerUsage> usage() {
            return executor.usage();
        }

        @Override
        public void run(io.drover.rep.executor.ContainerSpec spec) {
            executor.run(spec);
        }

        @Override
        public void stop(String instanceGuid, Duration grace) {
            executor.stop(instanceGuid, grace);
        }

        @Override
        public List<io.drover.rep.executor.Container> containers() {
            return executor.containers();
        }

        @Override
        public java.util.Optional<io.drover.rep.executor.Container> container(String instanceGuid) {
            return executor.container(instanceGuid);
        }

        @Override
        public void addListener(io.drover.rep.executor.ContainerListener listener) {
            executor.addListener(listener);
        }

        @Override
        public void forget(String instanceGuid) {
            executor.forget(instanceGuid);
        }

        @Override
        public java.util.Optional<io.drover.rep.executor.InstanceLog> log(String instanceGuid) {
            return executor.log(instanceGuid);
        }

        @Override
        public List<io.drover.rep.executor.Container> adopt() {
            return executor.adopt();
        }

        @Override
        public void close() {
        }
    }
}
