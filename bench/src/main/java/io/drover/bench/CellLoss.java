package io.drover.bench;

import io.drover.cluster.LocalCluster;
import java.time.Duration;

/**
 * P3: one simulated cell dies as a machine would (no heartbeat, no goodbye): the victim is hosted by a rep of its own
 * (shutdown mode KEEP), which is stopped; time until every instance it held is RUNNING on another cell.
 */
final class CellLoss {

    private final LocalCluster cluster;
    private final Database db;
    private final int victimRep;

    CellLoss(LocalCluster cluster, Database db, int victimRep) {
        this.cluster = cluster;
        this.db = db;
        this.victimRep = victimRep;
    }

    Figure run(Duration presenceTtl, Duration timeout) throws InterruptedException {
        String victim = cluster.cellIds(victimRep).get(0);
        long held = db.count("SELECT count(*) FROM actual_lrps WHERE cell_id = ?", victim);
        long total = db.count("SELECT count(*) FROM actual_lrps");
        long start = System.nanoTime();
        cluster.stopCell(victimRep);
        long deadline = start + timeout.toNanos();
        boolean recovered = false;
        while (!recovered && System.nanoTime() < deadline) {
            Thread.sleep(100);
            recovered = db.count("SELECT count(*) FROM actual_lrps WHERE state = 'RUNNING' AND cell_id <> ?",
                    victim) == total;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double target = presenceTtl.toSeconds() + 5;
        return new Figure("P3 a cell holding %d instances dies".formatted(held),
                recovered ? "all RUNNING elsewhere after %.1f s".formatted(seconds)
                        : "not recovered after %.0f s".formatted(seconds),
                "<= presence TTL + 5 s = %.0f s".formatted(target), recovered && seconds <= target,
                "cell %s; presence TTL %d s, then converger rule 2, auction, claim, start".formatted(victim,
                        presenceTtl.toSeconds()));
    }
}
