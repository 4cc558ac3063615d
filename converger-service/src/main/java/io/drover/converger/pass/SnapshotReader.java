package io.drover.converger.pass;

import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.converger.plan.ConvergenceSnapshot.Pipeline;
import io.drover.converger.plan.ElectionGrace;
import io.drover.model.domain.Domains;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.read.ActualLrpSummaries;
import io.drover.model.read.ConsistentReads;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.LiveCells;
import io.drover.model.task.TaskReads;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads a pass's snapshot through the read model in one consistent read, so desired, actual, cells, domains and tasks
 * are all seen as of the same instant. The actual LRPs stream in without an entity per row. While this leader's election grace
 * runs, it also reads when each expired cell's presence ran out (a few rows: one per machine).
 */
class SnapshotReader {

    private final ConsistentReads reads;
    private final DesiredLrpRows desiredRows;
    private final ActualLrpSummaries actualRows;
    private final LiveCells liveCells;
    private final PipelineProgress progress;
    private final TaskReads tasks;
    private final Domains domains;
    private final Supplier<ElectionGrace> grace;
    private final Clock clock;

    SnapshotReader(ReadModel model, Domains domains, Supplier<ElectionGrace> grace, Clock clock) {
        this.reads = model.reads();
        this.desiredRows = model.desired();
        this.actualRows = model.actuals();
        this.liveCells = model.cells();
        this.progress = model.progress();
        this.tasks = model.tasks();
        this.domains = domains;
        this.grace = grace;
        this.clock = clock;
    }

    /** The read model's parts a pass reads, and where the start pipeline stands. */
    record ReadModel(ConsistentReads reads, DesiredLrpRows desired, ActualLrpSummaries actuals, LiveCells cells,
            PipelineProgress progress, TaskReads tasks) {
    }

    ConvergenceSnapshot read() {
        return reads.inOneSnapshot(() -> {
            Instant now = clock.instant();
            List<Desired> desired = new ArrayList<>();
            desiredRows.forEachInstanceCount((guid, domain, instances) -> desired.add(new Desired(guid, domain,
                    instances)));
            List<Actual> actuals = new ArrayList<>(desired.size() * 4);
            actualRows.forEach(a -> actuals.add(new Actual(a.processGuid(), a.index(), a.domain(), a.state(),
                    a.cellId(), a.crashCount(), a.since(), a.placedCellId(), a.placedAt())));
            Map<String, Instant> cells = liveCells.placementsThrough(now);
            Pipeline pipeline = new Pipeline(progress.relayedThrough(now), progress.reported(PipelineProgress.AUCTION),
                    cells);
            ElectionGrace election = grace.get();
            Map<String, Instant> expired = election.isRunning(now) ? liveCells.expired(now) : Map.of();
            return new ConvergenceSnapshot(now, desired, actuals, cells.keySet(), new HashSet<>(domains.fresh(now)),
                    pipeline, expired, election, tasks.summaries());
        });
    }
}
