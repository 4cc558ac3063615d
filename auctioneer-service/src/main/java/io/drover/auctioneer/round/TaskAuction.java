package io.drover.auctioneer.round;

import io.drover.auctioneer.allocation.AllocationView;
import io.drover.auctioneer.round.RoundDecision.Decided;
import io.drover.auctioneer.scheduling.PlacementErrors;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of a round, placed after its LRPs: the same {@link RoundDecision} (so the same {@link Scheduler} rules and
 * error strings, on the leader's allocation view as the round's LRP placements left it, reconciled once on a capacity
 * shortage), then the placements committed through the task lifecycle (one auction result per cell, fenced by the
 * leader lock like the LRPs') and the failures recorded on the tasks for the converger to auction again. Each placement
 * the lifecycle made grows the view. A task is one instance of its own: its guid is its key, no siblings to spread from.
 */
class TaskAuction {

    private static final Logger log = LoggerFactory.getLogger(TaskAuction.class);

    private final TaskReads tasks;
    private final RoundDecision decision;
    private final TaskLifecycle lifecycle;
    private final AuctionRound.RoundSettings settings;
    private final MeterRegistry meters;

    TaskAuction(TaskReads tasks, RoundDecision decision, TaskLifecycle lifecycle, AuctionRound.RoundSettings settings,
            MeterRegistry meters) {
        this.tasks = tasks;
        this.decision = decision;
        this.lifecycle = lifecycle;
        this.settings = settings;
        this.meters = meters;
    }

    void run(Collection<String> requested) {
        if (requested.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        List<Work> work = tasks.placeable(List.copyOf(requested)).stream().map(TaskAuction::work).toList();
        if (work.isEmpty()) {
            return;
        }
        Decided decided = decision.decide(work);
        UUID auctionId = settings.ids().get();
        int placed;
        try {
            placed = place(auctionId, decided, work);
            commit(guids(decided.schedule().failures()), batch -> lifecycle.failPlacement(batch, AuctionRound.ACTOR),
                    guid -> {
                    });
        } catch (LeadershipLostException e) {
            log.warn("auction-round-tasks-fenced auction_id={} decided={} cause=\"{}\"", auctionId, work.size(),
                    e.getMessage());
            throw e;
        }
        meters.counter("drover.auction.tasks.placed").increment(placed);
        decided.schedule().failures().values().forEach(error -> meters.counter("drover.auction.tasks.failures",
                "reason", PlacementErrors.reason(error)).increment());
        log.info("auction-round-tasks auction_id={} requested={} skipped={} placed={} failed={} cells={} "
                + "duration_ms={}", auctionId, requested.size(), requested.size() - work.size(), placed,
                decided.schedule().failures().size(), decided.loads().size(),
                (System.nanoTime() - started) / 1_000_000);
    }

    /** A task as the scheduler sees work: keyed by its guid, index 0, and no other instance of it anywhere. */
    static Work work(TaskReads.Placeable task) {
        return Work.task(task.taskGuid(), task.memoryMb(), task.diskMb(), task.rootfs(), task.placementTags());
    }

    private int place(UUID auctionId, Decided decided, List<Work> work) {
        Map<String, Work> byGuid = new HashMap<>();
        work.forEach(w -> byGuid.put(w.processGuid(), w));
        Map<String, String> cellByGuid = guids(decided.schedule().placements());
        AllocationView view = decided.view();
        return commit(cellByGuid, batch -> lifecycle.place(auctionId, batch, AuctionRound.ACTOR),
                guid -> view.placed(cellByGuid.get(guid), byGuid.get(guid)));
    }

    private static Map<String, String> guids(Map<ActualLrpKey, String> byKey) {
        Map<String, String> byGuid = new LinkedHashMap<>();
        byKey.forEach((key, value) -> byGuid.put(key.processGuid(), value));
        return byGuid;
    }

    private int commit(Map<String, String> decided, Function<Map<String, String>, Map<String, Outcome>> apply,
            Consumer<String> changed) {
        return BatchedCommit.commit(decided, settings.commitBatchSize(), apply, changed, (guid, outcome) -> log.info(
                "auction-commit-skipped task_guid={} outcome={} message=\"{}\"", guid, outcome.kind(),
                outcome.message()));
    }
}
