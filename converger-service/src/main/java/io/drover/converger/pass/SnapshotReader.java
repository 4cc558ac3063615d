package io.drover.converger.pass;

import io.drover.converger.plan.ConvergenceSnapshot;
import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.converger.plan.ConvergenceSnapshot.Pipeline;
import io.drover.converger.plan.ElectionGrace;
import io.drover.model.domain.Domains;
import io.drover.model.messaging.PipelineProgress;
import io.drover.model.read.ActualLrpSummaries;
import io.drover.model.read.ActualLrpSummaries.IndexSpan;
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
import java.util.Set;
import java.util.function.Function;

/**
 * Reads a pass's snapshot through the read model in one consistent read, so desired, actual, cells, domains and tasks
 * are all seen as of the same instant. Of the actual LRPs it reads only those a rule may act on: first, from indexes
 * alone, how many instances each LRP has and its highest index, and which cells own instances; then the rows no cell
 * owns (UNCLAIMED, CRASHED), the rows on cells whose presence is not live, and every row of the LRPs that do not have
 * exactly their desired indexes (missing or extra ones, or no desired LRP at all). A million RUNNING instances with
 * nothing to do cost two index scans and no row ({@code docs/performance.md}, "The million"). The rows stream in
 * without an entity per row. While this leader's election grace runs, it also reads when each expired cell's presence
 * ran out (a few rows: one per machine).
 */
class SnapshotReader {

    private final ConsistentReads reads;
    private final DesiredLrpRows desiredRows;
    private final ActualLrpSummaries actualRows;
    private final LiveCells liveCells;
    private final PipelineProgress progress;
    private final TaskReads tasks;
    private final Domains domains;
    private final Function<Instant, ElectionGrace> grace;
    private final Clock clock;

    SnapshotReader(ReadModel model, Domains domains, Function<Instant, ElectionGrace> grace, Clock clock) {
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
            Map<String, Instant> cells = liveCells.placementsThrough(now);
            Unsettled actuals = unsettled(desired, cells.keySet());
            Pipeline pipeline = new Pipeline(progress.relayedThrough(now), progress.reported(PipelineProgress.AUCTION),
                    cells);
            ElectionGrace election = grace.apply(now);
            Map<String, Instant> expired = election.isRunning(now) ? liveCells.expired(now) : Map.of();
            return new ConvergenceSnapshot(now, desired, actuals.listed(), cells.keySet(),
                    new HashSet<>(domains.fresh(now)), pipeline, expired, election, tasks.summaries(), actuals.whole(),
                    actuals.held());
        });
    }

    /**
     * The actual LRPs a rule may act on. An LRP desired with exactly the indexes 0 to instances - 1 is whole: rules 1, 5
     * and 6 cannot apply to it, and of its instances only those no cell owns (rules 3 and 4) or owned by a cell that
     * is not live (rule 2) are read. Every instance of any other LRP is read.
     */
    private Unsettled unsettled(List<Desired> desired, Set<String> live) {
        Map<String, IndexSpan> spans = actualRows.indexSpans();
        Set<String> whole = new HashSet<>();
        for (Desired d : desired) {
            IndexSpan span = spans.get(d.processGuid());
            if (span != null && span.isExactly(d.instances())) {
                whole.add(d.processGuid());
            }
        }
        List<String> uneven = spans.keySet().stream().filter(guid -> !whole.contains(guid)).toList();
        Set<String> unlive = actualRows.cellsHolding();
        unlive.removeAll(live);
        List<Actual> listed = new ArrayList<>();
        actualRows.forEachUnsettled(unlive, uneven, a -> listed.add(new Actual(a.processGuid(), a.index(), a.domain(),
                a.state(), a.cellId(), a.crashCount(), a.since(), a.placedCellId(), a.placedAt())));
        return new Unsettled(listed, whole, spans.values().stream().mapToInt(IndexSpan::count).sum());
    }

    /** The actual LRPs read, the LRPs known whole, and how many actual LRPs there are in all. */
    private record Unsettled(List<Actual> listed, Set<String> whole, int held) {
    }
}
