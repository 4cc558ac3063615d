package io.drover.auctioneer.allocation;

import static io.drover.auctioneer.allocation.AllocationViewTest.cell;
import static io.drover.auctioneer.allocation.AllocationViewTest.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.task.TaskReads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tasks hold what instances hold: the view sees a cell busy with tasks as busy. */
class TaskAllocationTest {

    @Test
    void aCellsTasksAddTheirResourcesAContainerEachAndTheUnstartedOnesCountAsStarting() {
        List<AllocationRow> rows = new ArrayList<>(List.of(row("a", "web", 1, 1, 100, 10)));
        rows.addAll(AllocationReader.taskRows(List.of(new TaskReads.CellLoad("a", 3, 2, 300, 30))));

        CellLoad load = AllocationView.of(rows).loads(List.of(cell("a"))).get(0);

        assertThat(load.allocated()).isEqualTo(new Resources(400, 40, 4));
        assertThat(load.starting()).isEqualTo(3);
        assertThat(load.instancesByProcessGuid()).as("no LRP spreads from tasks")
                .isEqualTo(Map.of("web", 1, AllocationReader.TASKS, 3));
    }

    @Test
    void aCellFullOfTasksTakesNoMoreWorkAndTheSchedulerSaysWhy() {
        AllocationView view = AllocationView.of(AllocationReader.taskRows(List.of(new TaskReads.CellLoad("a", 1, 0,
                4000, 0))));

        Schedule schedule = Scheduler.unlimited().schedule(List.of(new Work(ActualLrpKey.of("t9", 0), 512, 0,
                "preloaded:host", Set.of())), view.loads(List.of(cell("a"))));

        assertThat(schedule.failures()).containsEntry(ActualLrpKey.of("t9", 0), "insufficient resources: memory");
    }
}
