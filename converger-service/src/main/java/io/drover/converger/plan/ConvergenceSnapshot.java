package io.drover.converger.plan;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.task.TaskReads.TaskSummary;
import io.drover.model.time.Instants;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one convergence pass looks at, read in one consistent transaction: the desired instance counts, the
 * actual LRPs a rule may act on (only the columns the rules need), the cells whose presence has not expired, the fresh
 * domains, how far the start pipeline has got, every task (what the task rules look at) and the time of the pass; and,
 * while this leader's election grace runs, the grace and when each expired cell's presence ran out
 * ({@code expiredCells}, empty otherwise). The tasks are read with the cells: a task rule never judges a row newer
 * than the cells it is held against.
 *
 * <p>{@code actuals} need not be every actual LRP: an LRP in {@code wholeLrps} has exactly the indexes 0 to
 * {@code instances - 1} (so no rule 1 or 5 applies to it), and of its instances only those a rule may act on are
 * listed (no cell owns them, or their cell is not live). Every other LRP's instances are all listed. {@code actualsHeld}
 * counts every actual LRP, listed or not.
 */
public record ConvergenceSnapshot(Instant now, List<Desired> desired, List<Actual> actuals, Set<String> liveCells,
        Set<String> freshDomains, Pipeline pipeline, Map<String, Instant> expiredCells, ElectionGrace grace,
        List<TaskSummary> tasks, Set<String> wholeLrps, int actualsHeld) {

    public ConvergenceSnapshot {
        desired = List.copyOf(desired);
        actuals = List.copyOf(actuals);
        liveCells = Set.copyOf(liveCells);
        freshDomains = Set.copyOf(freshDomains);
        expiredCells = Map.copyOf(expiredCells);
        tasks = List.copyOf(tasks);
        wholeLrps = Set.copyOf(wholeLrps);
    }

    /** A snapshot that lists every actual LRP. */
    public ConvergenceSnapshot(Instant now, List<Desired> desired, List<Actual> actuals, Set<String> liveCells,
            Set<String> freshDomains, Pipeline pipeline, Map<String, Instant> expiredCells, ElectionGrace grace,
            List<TaskSummary> tasks) {
        this(now, desired, actuals, liveCells, freshDomains, pipeline, expiredCells, grace, tasks, Set.of(),
                actuals.size());
    }

    /** A snapshot with no tasks. */
    public ConvergenceSnapshot(Instant now, List<Desired> desired, List<Actual> actuals, Set<String> liveCells,
            Set<String> freshDomains, Pipeline pipeline, Map<String, Instant> expiredCells, ElectionGrace grace) {
        this(now, desired, actuals, liveCells, freshDomains, pipeline, expiredCells, grace, List.of());
    }

    /** A snapshot with no election grace running. */
    public ConvergenceSnapshot(Instant now, List<Desired> desired, List<Actual> actuals, Set<String> liveCells,
            Set<String> freshDomains, Pipeline pipeline) {
        this(now, desired, actuals, liveCells, freshDomains, pipeline, Map.of(), ElectionGrace.NONE);
    }

    /**
     * Whether the work on {@code cellId} is judged lost (rule 2, and "cell disappeared" for tasks): its presence
     * expired, or it has none, and the election grace does not spare it.
     */
    public boolean isLost(String cellId) {
        return !liveCells.contains(cellId) && !grace.spares(expiredCells.get(cellId), now);
    }

    /**
     * How far the start pipeline has got ({@code io.drover.model.messaging.PipelineProgress}), each stage as a time:
     * every request made before it has been handled by that stage, or never will be.
     *
     * @param relayed the relay: the write time of the oldest message it has not sent, or now
     * @param auctionReported what the auctioneer leader last reported; null if none ever did
     * @param placementsReported per live cell, what its rep last reported (a cell missing here counts as caught up)
     */
    public record Pipeline(Instant relayed, Instant auctionReported, Map<String, Instant> placementsReported) {

        public Pipeline {
            placementsReported = Map.copyOf(placementsReported);
        }

        /** Nothing queued anywhere: every stage is through {@code now} (rule 3 then judges by age alone). */
        public static Pipeline caughtUp(Instant now) {
            return new Pipeline(now, now, Map.of());
        }

        /** Through when the auction has handled every start request; never ahead of the relay that feeds it. */
        public Instant auctioned() {
            return Instants.earlier(relayed, auctionReported);
        }

        /** Through when {@code cellId} has taken up every placement made on it; never ahead of the relay. */
        public Instant placementsTakenUp(String cellId) {
            return Instants.earlier(relayed, placementsReported.get(cellId));
        }
    }

    /** A desired LRP as convergence sees it: how many instances of it should exist. */
    public record Desired(String processGuid, String domain, int instances) {
    }

    /**
     * An actual LRP as convergence sees it. {@code since} is its last state change; {@code placedAt} the time an
     * auction placed it (UNCLAIMED only, null when no placement is in flight).
     */
    public record Actual(String processGuid, int index, String domain, ActualLrpState state, String cellId,
            int crashCount, Instant since, String placedCellId, Instant placedAt) {

        public ActualLrpKey key() {
            return ActualLrpKey.of(processGuid, index);
        }
    }
}
