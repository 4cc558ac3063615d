package io.drover.converger.gc;

import io.drover.model.leader.LeaderElection;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/** Runs the garbage collector on its own, slower schedule, on the leader only. */
class GarbageCollection {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollection.class);

    private final GarbageCollector collector;
    private final LeaderElection leader;
    private final Clock clock;

    GarbageCollection(GarbageCollector collector, LeaderElection leader, Clock clock) {
        this.collector = collector;
        this.leader = leader;
        this.clock = clock;
    }

    @Scheduled(initialDelayString = "${drover.converger.gc-interval:5m}",
            fixedDelayString = "${drover.converger.gc-interval:5m}")
    void run() {
        if (!leader.isLeader()) {
            return;
        }
        try {
            collector.collect(clock.instant());
        } catch (RuntimeException e) {
            log.warn("garbage-collection-failed cause={}", e.toString());
        }
    }
}
