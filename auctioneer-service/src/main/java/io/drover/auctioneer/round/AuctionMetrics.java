package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.PlacementErrors;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The auction metrics of SPEC 10: round duration, batch size, placements, failures by reason, starts in flight. */
class AuctionMetrics {

    private final MeterRegistry registry;
    private final Timer roundDuration;
    private final DistributionSummary batchSize;
    private final Counter placements;
    private final Counter skipped;
    private final AtomicInteger startsInFlight = new AtomicInteger();

    AuctionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.roundDuration = Timer.builder("drover.auction.round.duration")
                .description("Time to read, decide and commit one auction round").register(registry);
        this.batchSize = DistributionSummary.builder("drover.auction.round.batch.size")
                .description("Distinct instances asked for in one round").register(registry);
        this.placements = Counter.builder("drover.auction.placements").description("Instances placed on a cell")
                .register(registry);
        this.skipped = Counter.builder("drover.auction.skipped")
                .description("Requested instances no longer needing a placement").register(registry);
        registry.gauge("drover.auction.starts.in.flight", startsInFlight);
    }

    void round(int requested, int skippedCount, int placed, Collection<String> errors, int starting, Duration took) {
        roundDuration.record(took);
        batchSize.record(requested);
        skipped.increment(skippedCount);
        placements.increment(placed);
        Map<String, Integer> byReason = new HashMap<>();
        errors.forEach(e -> byReason.merge(PlacementErrors.reason(e), 1, Integer::sum));
        byReason.forEach((reason, count) -> Counter.builder("drover.auction.failures").tag("reason", reason)
                .description("Instances no cell could take, by reason").register(registry).increment(count));
        startsInFlight.set(starting);
    }
}
