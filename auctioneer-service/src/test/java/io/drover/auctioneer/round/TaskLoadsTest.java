package io.drover.auctioneer.round;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.task.TaskReads;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tasks hold what instances hold: an auction sees a cell busy with tasks as busy. */
class TaskLoadsTest {

    static final Resources CAPACITY = new Resources(1024, 4096, 4);

    @Test
    void aCellsTasksAddTheirResourcesASlotEachAndTheUnstartedOnesCountAsStarting() {
        CellLoad cell = new CellLoad("a", "z1", CAPACITY, new Resources(100, 10, 1), Set.of("preloaded:host"), Set.of(),
                Set.of(), Map.of("web", 1), 1);
        List<CellLoad> loads = TaskLoads.including(List.of(cell, CellLoad.empty("b", "z2", CAPACITY,
                Set.of("preloaded:host"))), List.of(new TaskReads.CellLoad("a", 3, 2, 300, 30)));

        assertThat(loads.get(0).allocated()).isEqualTo(new Resources(400, 40, 4));
        assertThat(loads.get(0).starting()).isEqualTo(3);
        assertThat(loads.get(0).instancesByProcessGuid()).isEqualTo(Map.of("web", 1));
        assertThat(loads.get(1)).as("a cell without tasks").isEqualTo(CellLoad.empty("b", "z2", CAPACITY,
                Set.of("preloaded:host")));
    }

    @Test
    void aCellFullOfTasksTakesNoMoreWorkAndTheSchedulerSaysWhy() {
        List<CellLoad> loads = TaskLoads.including(List.of(CellLoad.empty("a", "z1", CAPACITY,
                Set.of("preloaded:host"))), List.of(new TaskReads.CellLoad("a", 1, 0, 1000, 0)));

        Schedule schedule = Scheduler.unlimited().schedule(List.of(new Work(ActualLrpKey.of("t9", 0), 512, 0,
                "preloaded:host", Set.of())), loads);

        assertThat(schedule.failures()).containsEntry(ActualLrpKey.of("t9", 0), "insufficient resources: memory");
    }

    @Test
    void aTaskIsWorkKeyedByItsGuidWithWhatItNeeds() {
        Work work = TaskAuction.work(new TaskReads.Placeable("t1", 64, 32, "preloaded:host", Set.of("ssd")));

        assertThat(work).isEqualTo(new Work(ActualLrpKey.of("t1", 0), 64, 32, "preloaded:host", Set.of("ssd")));
    }
}
