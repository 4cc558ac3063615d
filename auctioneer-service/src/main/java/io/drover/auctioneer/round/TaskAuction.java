package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.PlacementErrors;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.Outcome;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of a round, placed after its LRPs: the same {@link Scheduler} (so the same rootfs, tag, fit and zone rules
 * and the same error strings) over the cells as they stand once the round's LRP placements are committed, then the
 * placements committed through the task lifecycle (one auction result per cell) and the failures recorded on the
 * tasks for the converger to auction again. A task is one instance of its own: its guid is its key, it has no
 * siblings to spread from.
 */
class TaskAuction {

    private static final Logger log = LoggerFactory.getLogger(TaskAuction.class);

    private final TaskReads tasks;
    private final Supplier<List<CellLoad>> cells;
    private final Scheduler scheduler;
    private final TaskLifecycle lifecycle;
    private final AuctionRound.RoundSettings settings;
    private final MeterRegistry meters;

    TaskAuction(TaskReads tasks, Supplier<List<CellLoad>> cells, Scheduler scheduler, TaskLifecycle lifecycle,
            AuctionRound.RoundSettings settings, MeterRegistry meters) {
        this.tasks = tasks;
        this.cells = cells;
        this.scheduler = scheduler;
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
        List<CellLoad> loads = work.isEmpty() ? List.of() : cells.get();
        Schedule schedule = scheduler.schedule(work, loads);
        UUID auctionId = settings.ids().get();
        int placed = commit(guids(schedule.placements()), batch -> lifecycle.place(auctionId, batch,
                AuctionRound.ACTOR));
        commit(guids(schedule.failures()), batch -> lifecycle.failPlacement(batch, AuctionRound.ACTOR));
        meters.counter("drover.auction.tasks.placed").increment(placed);
        schedule.failures().values().forEach(error -> meters.counter("drover.auction.tasks.failures", "reason",
                PlacementErrors.reason(error)).increment());
        log.info("auction-round-tasks auction_id={} requested={} skipped={} placed={} failed={} cells={} "
                + "duration_ms={}", auctionId, requested.size(), requested.size() - work.size(), placed,
                schedule.failures().size(), loads.size(), (System.nanoTime() - started) / 1_000_000);
    }

    /** A task as the scheduler sees work: keyed by its guid, index 0, and no other instance of it anywhere. */
    static Work work(TaskReads.Placeable task) {
        return new Work(ActualLrpKey.of(task.taskGuid(), 0), task.memoryMb(), task.diskMb(), task.rootfs(),
                task.placementTags());
    }

    private static Map<String, String> guids(Map<ActualLrpKey, String> byKey) {
        Map<String, String> byGuid = new LinkedHashMap<>();
        byKey.forEach((key, value) -> byGuid.put(key.processGuid(), value));
        return byGuid;
    }

    private int commit(Map<String, String> decided, Function<Map<String, String>, Map<String, Outcome>> apply) {
        int succeeded = 0;
        List<Map.Entry<String, String>> entries = new ArrayList<>(decided.entrySet());
        for (int from = 0; from < entries.size(); from += settings.commitBatchSize()) {
            Map<String, String> batch = new LinkedHashMap<>();
            entries.subList(from, Math.min(entries.size(), from + settings.commitBatchSize()))
                    .forEach(e -> batch.put(e.getKey(), e.getValue()));
            for (var outcome : apply.apply(batch).entrySet()) {
                if (outcome.getValue().succeeded()) {
                    succeeded++;
                } else {
                    log.info("auction-commit-skipped task_guid={} outcome={} message=\"{}\"", outcome.getKey(),
                            outcome.getValue().kind(), outcome.getValue().message());
                }
            }
        }
        return succeeded;
    }
}
