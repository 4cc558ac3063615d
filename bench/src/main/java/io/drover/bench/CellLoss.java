package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.drover.rep.agent.CellAgents;
import java.time.Duration;

/**
 * P3: one simulated cell dies as a machine would (no heartbeat, no goodbye); time until every instance it held is
 * RUNNING on another cell.
 */
final class CellLoss {

    private final LocalCluster cluster;
    private final Database db;

    CellLoss(LocalCluster cluster, Database db) {
        this.cluster = cluster;
        this.db = db;
    }

    Figure run(Duration presenceTtl, Duration timeout) throws InterruptedException {
        String victim = db.string("SELECT cell_id FROM actual_lrps WHERE state = 'RUNNING' GROUP BY cell_id "
                + "ORDER BY count(*) DESC LIMIT 1");
        long held = db.count("SELECT count(*) FROM actual_lrps WHERE cell_id = ?", victim);
        long total = db.count("SELECT count(*) FROM actual_lrps");
        long start = System.nanoTime();
        cluster.reps().get(0).getBean(CellAgents.class).kill(victim);
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
