package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Schedule;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import java.time.Duration;
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
 * One auction: read what still needs a placement and the schedulable cells, decide with the {@link Scheduler}, commit
 * the placements (one auction result per cell, in the same transaction) and the failures through the lifecycle.
 */
class AuctionRound {

    static final Actor ACTOR = Actor.service("auctioneer");
    private static final Logger log = LoggerFactory.getLogger(AuctionRound.class);

    private final AuctionSnapshots snapshots;
    private final Scheduler scheduler;
    private final ActualLrpLifecycle lifecycle;
    private final RoundSettings settings;
    private final AuctionMetrics metrics;

    AuctionRound(AuctionSnapshots snapshots, Scheduler scheduler, ActualLrpLifecycle lifecycle, RoundSettings settings,
            AuctionMetrics metrics) {
        this.snapshots = snapshots;
        this.scheduler = scheduler;
        this.lifecycle = lifecycle;
        this.settings = settings;
        this.metrics = metrics;
    }

    void run(Collection<ActualLrpKey> requested) {
        if (requested.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        UUID auctionId = settings.ids().get();
        List<Work> work = snapshots.work(List.copyOf(requested));
        List<CellLoad> cells = work.isEmpty() ? List.of() : snapshots.cells();
        Schedule schedule = scheduler.schedule(work, cells);
        int placed = commit(schedule.placements(), batch -> lifecycle.place(auctionId, batch, ACTOR));
        commit(schedule.failures(), batch -> lifecycle.failPlacement(batch, ACTOR));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        int starting = cells.stream().mapToInt(CellLoad::starting).sum() + placed;
        metrics.round(requested.size(), requested.size() - work.size(), placed, schedule.failures().values(), starting,
                took);
        log.info("auction-round auction_id={} requested={} skipped={} placed={} failed={} cells={} duration_ms={}",
                auctionId, requested.size(), requested.size() - work.size(), placed, schedule.failures().size(),
                cells.size(), took.toMillis());
        schedule.failures().forEach((key, error) -> log.debug("auction-placement-failed process_guid={} index={} "
                + "error=\"{}\"", key.processGuid(), key.index(), error));
    }

    /** Commits in transactions of a few thousand; returns how many succeeded (changed or already so). */
    private int commit(Map<ActualLrpKey, String> decided,
            Function<Map<ActualLrpKey, String>, Map<ActualLrpKey, Outcome>> apply) {
        int succeeded = 0;
        List<Map.Entry<ActualLrpKey, String>> entries = new ArrayList<>(decided.entrySet());
        for (int from = 0; from < entries.size(); from += settings.commitBatchSize()) {
            Map<ActualLrpKey, String> batch = new LinkedHashMap<>();
            entries.subList(from, Math.min(entries.size(), from + settings.commitBatchSize()))
                    .forEach(e -> batch.put(e.getKey(), e.getValue()));
            Map<ActualLrpKey, Outcome> outcomes = apply.apply(batch);
            for (var outcome : outcomes.entrySet()) {
                if (outcome.getValue().succeeded()) {
                    succeeded++;
                } else {
                    log.info("auction-commit-skipped process_guid={} index={} outcome={} message=\"{}\"",
                            outcome.getKey().processGuid(), outcome.getKey().index(), outcome.getValue().kind(),
                            outcome.getValue().message());
                }
            }
        }
        return succeeded;
    }

    /** How a round commits: transaction size and the auction id supplier. */
    record RoundSettings(int commitBatchSize, Supplier<UUID> ids) {

        RoundSettings {
            if (commitBatchSize < 1) {
                throw new IllegalArgumentException("commitBatchSize must be >= 1: " + commitBatchSize);
            }
        }
    }
}
