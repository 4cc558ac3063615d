package io.drover.converger.gc;

import io.drover.model.leader.LeaderElection;
import io.drover.model.read.Tallies;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Runs the garbage collector on its own, slower schedule, and folds the kept instance counts on a faster one
 * ({@link Tallies#fold}: each change of instances appends a few rows, which the dashboard's counts sum), on the leader
 * only.
 */
class GarbageCollection {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollection.class);

    private final GarbageCollector collector;
    private final LeaderElection leader;
    private final Clock clock;
    private final Tallies tallies;
    private final MeterRegistry registry;

    GarbageCollection(GarbageCollector collector, LeaderElection leader, Clock clock, Tallies tallies,
            MeterRegistry registry) {
        this.collector = collector;
        this.leader = leader;
        this.clock = clock;
        this.tallies = tallies;
        this.registry = registry;
    }

    @Scheduled(initialDelayString = "${drover.converger.gc-interval:5m}",
            fixedDelayString = "${drover.converger.gc-interval:5m}")
    void run() {
        onLeader("garbage-collection-failed", () -> collector.collect(clock.instant()));
    }

    @Scheduled(initialDelayString = "${drover.converger.tally-fold-interval:10s}",
            fixedDelayString = "${drover.converger.tally-fold-interval:10s}")
    void foldTallies() {
        onLeader("tally-fold-failed", () -> registry.counter("drover.convergence.gc.deleted", "table",
                "instance_tallies").increment(tallies.fold()));
    }

    /** Runs {@code work} if this converger leads; a failure is logged as {@code failure} and tried again next time. */
    private void onLeader(String failure, Runnable work) {
        if (!leader.isLeader()) {
            return;
        }
        try {
            work.run();
        } catch (RuntimeException e) {
            log.warn("{} cause={}", failure, e.toString());
        }
    }
}
