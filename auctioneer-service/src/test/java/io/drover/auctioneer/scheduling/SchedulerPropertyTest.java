package io.drover.auctioneer.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Random rounds of 10,000 instances over 1,000 cells: no cell ever ends up over its capacity, every placement is
 * compatible, and every instance is either placed or failed. Prints how long a round takes, as wall and CPU time of
 * this thread (not asserted: shared CI machines vary; the figure is reported by the project's notes).
 */
class SchedulerPropertyTest {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final List<String> ROOTFS = List.of("preloaded:host", "preloaded:cflinuxfs4", "docker:///busybox");
    private static final List<String> ZONES = List.of("z1", "z2", "z3");

    @Test
    void randomRoundsNeverExceedAnyCellsCapacity() {
        long bestNanos = Long.MAX_VALUE;
        long bestCpuNanos = Long.MAX_VALUE;
        for (long seed = 1; seed <= 8; seed++) {
            Random random = new Random(seed);
            List<CellLoad> cells = cells(random, 1_000);
            List<Work> work = work(random, 10_000);
            long start = System.nanoTime();
            long cpu = CPU.getCurrentThreadCpuTime();
            Schedule schedule = new Scheduler(seed % 2 == 0 ? 0 : 9_000).schedule(work, cells);
            bestCpuNanos = Math.min(bestCpuNanos, CPU.getCurrentThreadCpuTime() - cpu);
            bestNanos = Math.min(bestNanos, System.nanoTime() - start);

            assertEveryInstanceIsDecided(work, schedule);
            assertNoCellIsOvercommitted(cells, work, schedule);
            assertPlacementsAreCompatible(cells, work, schedule);
        }
        System.out.printf("scheduler-round random instances=10000 cells=1000 best_wall_ms=%.1f best_cpu_ms=%.1f%n",
                bestNanos / 1e6, bestCpuNanos / 1e6);
    }

    @Test
    void aRoundOnAHomogeneousFleetPlacesEverythingThatFits() {
        List<CellLoad> cells = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            cells.add(CellLoad.empty(String.format("cell-%04d", i), ZONES.get(i % 3), new Resources(16_384, 65_536, 64),
                    Set.of("preloaded:host")));
        }
        List<Work> work = new ArrayList<>();
        for (int lrp = 0; lrp < 1_000; lrp++) {
            for (int index = 0; index < 10; index++) {
                work.add(new Work(ActualLrpKey.of("lrp-" + lrp, index), 256, 512, "preloaded:host", Set.of()));
            }
        }
        Schedule schedule = null;
        long first = 0;
        long nanos = Long.MAX_VALUE;
        long cpuNanos = Long.MAX_VALUE;
        for (int run = 0; run < 5; run++) {
            long start = System.nanoTime();
            long cpu = CPU.getCurrentThreadCpuTime();
            schedule = Scheduler.unlimited().schedule(work, cells);
            cpuNanos = Math.min(cpuNanos, CPU.getCurrentThreadCpuTime() - cpu);
            nanos = Math.min(nanos, System.nanoTime() - start);
            first = run == 0 ? System.nanoTime() - start : first;
        }

        assertThat(schedule.failures()).isEmpty();
        Map<String, Map<String, Integer>> perCellPerLrp = new HashMap<>();
        schedule.placements().forEach((key, cell) -> perCellPerLrp.computeIfAbsent(cell, c -> new HashMap<>())
                .merge(key.processGuid(), 1, Integer::sum));
        assertThat(perCellPerLrp.values()).allSatisfy(byLrp -> assertThat(byLrp.values()).containsOnly(1));
        System.out.printf("scheduler-round homogeneous instances=10000 cells=1000 first_wall_ms=%.1f best_wall_ms=%.1f "
                + "best_cpu_ms=%.1f%n", first / 1e6, nanos / 1e6, cpuNanos / 1e6);
    }

    private static List<CellLoad> cells(Random random, int count) {
        List<CellLoad> cells = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Resources capacity = new Resources(1024 * (4 + random.nextInt(29)), 4096 * (4 + random.nextInt(29)),
                    10 + random.nextInt(240));
            Resources used = new Resources(random.nextInt(capacity.memoryMb() / 2), random.nextInt(capacity.diskMb() / 2),
                    random.nextInt(capacity.containers() / 2));
            Set<String> rootfs = new HashSet<>(List.of(ROOTFS.get(0)));
            if (random.nextBoolean()) {
                rootfs.add(ROOTFS.get(1 + random.nextInt(2)));
            }
            Set<String> required = random.nextInt(10) == 0 ? Set.of("secure") : Set.of();
            Set<String> optional = random.nextInt(4) == 0 ? Set.of("ssd") : Set.of();
            cells.add(new CellLoad("cell-" + i, ZONES.get(random.nextInt(ZONES.size())), capacity, used, rootfs,
                    required, optional, Map.of("lrp-" + random.nextInt(2_000), 1 + random.nextInt(3)),
                    random.nextInt(5)));
        }
        return cells;
    }

    private static List<Work> work(Random random, int count) {
        List<Work> work = new ArrayList<>();
        int lrp = 0;
        while (work.size() < count) {
            int instances = 1 + random.nextInt(20);
            int memory = 64 * (1 + random.nextInt(32));
            int disk = 128 * (1 + random.nextInt(16));
            String rootfs = ROOTFS.get(random.nextInt(10) < 8 ? 0 : 1 + random.nextInt(2));
            Set<String> tags = random.nextInt(10) == 0 ? Set.of("ssd") : Set.of();
            for (int i = 0; i < instances && work.size() < count; i++) {
                work.add(new Work(ActualLrpKey.of("lrp-" + lrp, i), memory, disk, rootfs, tags));
            }
            lrp++;
        }
        return work;
    }

    private static void assertEveryInstanceIsDecided(List<Work> work, Schedule schedule) {
        assertThat(schedule.placements().size() + schedule.failures().size()).isEqualTo(work.size());
        assertThat(schedule.placements().keySet()).noneMatch(schedule.failures()::containsKey);
    }

    private static void assertNoCellIsOvercommitted(List<CellLoad> cells, List<Work> work, Schedule schedule) {
        Map<ActualLrpKey, Work> byKey = new HashMap<>();
        work.forEach(w -> byKey.put(w.key(), w));
        Map<String, Resources> used = new HashMap<>();
        cells.forEach(c -> used.put(c.cellId(), c.allocated()));
        schedule.placements().forEach((key, cell) -> used.merge(cell,
                new Resources(byKey.get(key).memoryMb(), byKey.get(key).diskMb(), 1), Resources::plus));
        assertThat(cells).allSatisfy(c -> assertThat(c.capacity().fits(used.get(c.cellId())))
                .as("cell %s capacity %s used %s", c.cellId(), c.capacity(), used.get(c.cellId())).isTrue());
    }

    private static void assertPlacementsAreCompatible(List<CellLoad> cells, List<Work> work, Schedule schedule) {
        Map<String, CellLoad> byId = new HashMap<>();
        cells.forEach(c -> byId.put(c.cellId(), c));
        Map<ActualLrpKey, Work> byKey = new HashMap<>();
        work.forEach(w -> byKey.put(w.key(), w));
        schedule.placements().forEach((key, cellId) -> {
            CellLoad cell = byId.get(cellId);
            assertThat(cell.rootfsProviders()).contains(byKey.get(key).rootfs());
            assertThat(cell.acceptsTags(byKey.get(key).placementTags())).isTrue();
        });
    }
}
