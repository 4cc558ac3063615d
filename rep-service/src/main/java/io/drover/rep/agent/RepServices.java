package io.drover.rep.agent;

import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.rep.cell.RepMetrics;
import io.drover.rep.records.CellRecords;
import io.drover.rep.records.Definitions;
import io.drover.rep.writes.GroupCommit;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * What every cell agent of a process shares: the lifecycle (and the group commit that batches the cells' writes, their
 * tasks' too), reads of the model (tasks included), presence and the drain write path (a cell says when an operator's
 * drain is done), meters, the id and time sources, one timer thread, one worker pool, and the heartbeat pool
 * (heartbeats never queue behind a cell's work); and this rep process's identity ({@code holder}, made at start),
 * which holds its cells' presence locks.
 */
record RepServices(ActualLrpLifecycle lifecycle, GroupCommit commits, CellRecords records, Definitions definitions,
        CellPresence presence, CellDrains drains, RepMetrics metrics, Supplier<UUID> ids, Clock clock,
        ScheduledExecutorService timers, ExecutorService workers, ExecutorService heartbeats, TaskReads tasks,
        String holder) {
}
