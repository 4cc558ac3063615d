package io.drover.auctioneer.round;

import io.drover.auctioneer.allocation.AllocationView;
import io.drover.auctioneer.round.RoundDecision.Decided;
import io.drover.auctioneer.scheduling.CellLoad;
import io.drover.auctioneer.scheduling.Scheduler;
import io.drover.auctioneer.scheduling.Work;
import io.drover.model.leader.LeadershipLostException;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.Outcome;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One auction: read what still needs a placement, decide with the {@link Scheduler} on the leader's allocation view
 * ({@link RoundDecision}), commit the placements (one auction result per cell, in the same transaction) and the
 * failures through the lifecycle, and grow the view by the placements the lifecycle confirmed. The lifecycle is fenced
 * by the leader lock, so a round whose leader was deposed after deciding writes nothing.
 */
class AuctionRound {

    static final Actor ACTOR = Actor.service("auctioneer");
    private static final Logger log = LoggerFactory.getLogger(AuctionRound.class);

    private final AuctionSnapshots snapshots;
    private final RoundDecision decision;
    private final ActualLrpLifecycle lifecycle;
    private final RoundSettings settings;
    private final AuctionMetrics metrics;

    AuctionRound(AuctionSnapshots snapshots, RoundDecision decision, ActualLrpLifecycle lifecycle,
            RoundSettings settings, AuctionMetrics metrics) {
        this.snapshots = snapshots;
        this.decision = decision;
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
        if (work.isEmpty()) {
            report(auctionId, requested.size(), 0, 0, null, started);
            return;
        }
        Decided decided = decision.decide(work);
        settings.hook().beforeCommitting(decided.schedule());
        int placed = apply(auctionId, decided, work);
        report(auctionId, requested.size(), work.size(), placed, decided, started);
    }

    /** Writes the decision: placements, then failures. A fenced write (this leader was deposed) writes nothing more. */
    private int apply(UUID auctionId, Decided decided, List<Work> work) {
        try {
            int placed = place(auctionId, decided, work);
            commit(decided.schedule().failures(), batch -> lifecycle.failPlacement(batch, ACTOR), key -> {
            });
            return placed;
        } catch (LeadershipLostException e) {
            log.warn("auction-round-fenced auction_id={} decided={} cause=\"{}\"", auctionId, work.size(),
                    e.getMessage());
            throw e;
        }
    }

    /** Metrics and the {@code auction-round} log line; {@code decided} is null when nothing needed a placement. */
    private void report(UUID auctionId, int requested, int needed, int placed, Decided decided, long started) {
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        Map<ActualLrpKey, String> failures = decided == null ? Map.of() : decided.schedule().failures();
        List<CellLoad> cells = decided == null ? List.of() : decided.loads();
        int starting = cells.stream().mapToInt(CellLoad::starting).sum() + placed;
        metrics.round(requested, requested - needed, placed, failures.values(), starting, took);
        log.info("auction-round auction_id={} requested={} skipped={} placed={} failed={} cells={} view={} "
                + "duration_ms={}", auctionId, requested, requested - needed, placed, failures.size(), cells.size(),
                decided == null ? "-" : decided.viewSource().name().toLowerCase(Locale.ROOT), took.toMillis());
        failures.forEach((key, error) -> log.debug("auction-placement-failed process_guid={} index={} error=\"{}\"",
                key.processGuid(), key.index(), error));
    }

    /** Commits the placements; each one the lifecycle made takes its resources in the view at once. */
    private int place(UUID auctionId, Decided decided, List<Work> work) {
        Map<ActualLrpKey, Work> byKey = new HashMap<>();
        work.forEach(w -> byKey.put(w.key(), w));
        Map<ActualLrpKey, String> cellByKey = decided.schedule().placements();
        AllocationView view = decided.view();
        return commit(cellByKey, batch -> lifecycle.place(auctionId, batch, ACTOR),
                key -> view.placed(cellByKey.get(key), byKey.get(key)));
    }

    /**
     * Commits in transactions of a few thousand; returns how many succeeded (changed or already so) and hands each one
     * the lifecycle changed to {@code changed}.
     */
    private int commit(Map<ActualLrpKey, String> decided,
            Function<Map<ActualLrpKey, String>, Map<ActualLrpKey, Outcome>> apply, Consumer<ActualLrpKey> changed) {
        return BatchedCommit.commit(decided, settings.commitBatchSize(), apply, changed, (key, outcome) -> log.info(
                "auction-commit-skipped process_guid={} index={} outcome={} message=\"{}\"", key.processGuid(),
                key.index(), outcome.kind(), outcome.message()));
    }

    /** How a round commits: transaction size, the auction id supplier, and the hook between deciding and committing. */
    record RoundSettings(int commitBatchSize, Supplier<UUID> ids, RoundHook hook) {

        RoundSettings {
            if (commitBatchSize < 1) {
                throw new IllegalArgumentException("commitBatchSize must be >= 1: " + commitBatchSize);
            }
        }
    }
}
