package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.allocation.AllocationView;
import io.drover.auctioneer.allocation.Allocations.Current;
import io.drover.auctioneer.allocation.Allocations.Source;
import io.drover.auctioneer.round.RoundDecision.Decided;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.CellState;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.CellAllocation;
import io.drover.model.task.TaskReads;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the auction's decision costs a task in the full benchmark's P6 (issue 37): 1,000 cells in three zones holding
 * P1's 100,000 instances (10,000 LRPs of 10, a hundred LRPs per cell), 10,000 tasks placed in rounds of 50 on the
 * leader's view, the view read again every 3,000 tasks (P6's pace against the 3 s reconcile interval). Measured is the
 * CPU of the round thread for the decisions and the view's growth (no I/O: the database's part is P6's), also on a view
 * that LRP placements grew since each read (a busy cluster places both). Rounds of 1,000 LRP instances on the same view
 * are measured too, so a move for tasks is seen not to cost the instances. Opt-in, as the other benchmarks:
 * {@code -Ddrover.benchmark=true -DargLine=} (the default compilers).
 */
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class TaskRoundCostBenchmarkTest {

    private static final int CELLS = 1_000;
    private static final int LRPS = 10_000;
    private static final int INSTANCES = 10;
    private static final int TASKS = 10_000;
    private static final int ROUND = 50;
    private static final int RECONCILE_EVERY = 3_000;
    private static final Resources CAPACITY = new Resources(16_384, 65_536, 256);

    @Test
    void aTaskRoundCostsWhatItPlacesNotWhatTheFleetHolds() {
        List<Cell> cells = new ArrayList<>();
        for (int c = 0; c < CELLS; c++) {
            cells.add(cell(c));
        }
        Map<String, CellAllocation> read = read();
        for (int pass = 1; pass <= 3; pass++) { // the first two warm the JIT
            System.out.printf("pass %d: %.1f us of CPU per task (rounds of %d), %.1f us on a view an LRP round grew "
                    + "since each read%n", pass, tasks(cells, read, "p" + pass + "-", false), ROUND,
                    tasks(cells, read, "p" + pass + "-grown-", true));
        }
        for (int pass = 1; pass <= 3; pass++) {
            double us = 0;
            for (int round = 0; round < 5; round++) {
                us += instances(cells, read, "p" + pass + "-" + round + "-") / 5;
            }
            System.out.printf("pass %d: %.1f us of CPU per LRP instance (rounds of 1,000)%n", pass, us);
        }
    }

    /**
     * Microseconds of the thread's CPU per task, over 10,000 tasks in rounds of {@link #ROUND}; with {@code grown},
     * each read of the view is followed by an instance placed on every cell (not measured), as while LRPs are placed
     * too.
     */
    private static double tasks(List<Cell> cells, Map<String, CellAllocation> read, String prefix, boolean grown) {
        AllocationView view = AllocationView.of(read);
        Scheduler scheduler = Scheduler.unlimited();
        long cpu = 0;
        int placed = 0;
        for (int from = 0; from < TASKS; from += ROUND) {
            if (from % RECONCILE_EVERY == 0) {
                view = AllocationView.of(read);
                if (grown) {
                    for (Cell cell : cells) {
                        view.placed(cell.cellId(), new Work(ActualLrpKey.of(prefix + from + "-" + cell.cellId(), 0),
                                64, 100, "preloaded:host", Set.of()));
                    }
                }
            }
            List<Work> work = new ArrayList<>(ROUND);
            for (int t = from; t < from + ROUND; t++) {
                work.add(TaskAuction.work(new TaskReads.Placeable(prefix + "task-" + t, 16, 16, "preloaded:host",
                        Set.of())));
            }
            long started = cpu();
            AllocationView current = view;
            Decided decided = RoundDecision.decide(scheduler, work, cells, new Current(view, Source.INCREMENTAL),
                    () -> current);
            Map<ActualLrpKey, Work> byKey = new HashMap<>();
            work.forEach(w -> byKey.put(w.key(), w));
            decided.schedule().placements().forEach((key, cell) -> current.placed(cell, byKey.get(key)));
            placed += decided.schedule().placements().size();
            cpu += cpu() - started;
        }
        assertThat(placed).isEqualTo(TASKS);
        return cpu / 1e3 / TASKS;
    }

    /** Microseconds of CPU per instance of one round of 100 new LRPs of 10 on a view just read. */
    private static double instances(List<Cell> cells, Map<String, CellAllocation> read, String prefix) {
        AllocationView view = AllocationView.of(read);
        List<Work> work = new ArrayList<>();
        for (int lrp = 0; lrp < 100; lrp++) {
            for (int i = 0; i < 10; i++) {
                work.add(new Work(ActualLrpKey.of(prefix + "new-" + lrp, i), 64, 100, "preloaded:host", Set.of()));
            }
        }
        long cpu = cpu();
        Decided decided = RoundDecision.decide(Scheduler.unlimited(), work, cells,
                new Current(view, Source.INCREMENTAL), () -> view);
        Map<ActualLrpKey, Work> byKey = new HashMap<>();
        work.forEach(w -> byKey.put(w.key(), w));
        decided.schedule().placements().forEach((key, cell) -> view.placed(cell, byKey.get(key)));
        // the next round on the grown view: the cells' loads are handed out again
        RoundDecision.decide(Scheduler.unlimited(), List.of(new Work(ActualLrpKey.of(prefix + "next", 0), 64, 100,
                "preloaded:host", Set.of())), cells, new Current(view, Source.INCREMENTAL), () -> view);
        double us = (cpu() - cpu) / 1e3 / work.size();
        assertThat(decided.schedule().placements()).hasSize(work.size());
        return us;
    }

    /** P1's 100,000 instances: instance i of LRP k on cell (10 k + i) mod 1,000, 64 MB each. */
    private static Map<String, CellAllocation> read() {
        List<Map<String, Integer>> counts = new ArrayList<>();
        for (int c = 0; c < CELLS; c++) {
            counts.add(new HashMap<>());
        }
        for (int lrp = 0; lrp < LRPS; lrp++) {
            for (int i = 0; i < INSTANCES; i++) {
                counts.get((lrp * INSTANCES + i) % CELLS).merge("lrp-" + lrp, 1, Integer::sum);
            }
        }
        Map<String, CellAllocation> read = new HashMap<>();
        for (int c = 0; c < CELLS; c++) {
            int held = counts.get(c).values().stream().mapToInt(Integer::intValue).sum();
            read.put("cell-" + c, new CellAllocation(new Resources(64 * held, 100 * held, held), 0, counts.get(c)));
        }
        return read;
    }

    private static Cell cell(int c) {
        String id = "cell-" + c;
        return new Cell(new CellRegistration(id, "z" + (c % 3 + 1), id + ":1800", CAPACITY, List.of("preloaded:host"),
                List.of(), List.of()), CellState.ACTIVE, null, Instant.EPOCH, Instant.MAX, 0);
    }

    private static long cpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }
}
