package io.drover.bench;

import io.drover.cluster.LocalCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** How the benchmark configures the cluster, and the scenarios that need the services' insides (P2, P3). */
final class BenchSettings {

    private BenchSettings() {
    }

    static final Duration PRESENCE_TTL = Duration.ofSeconds(15);

    static Map<String, String> clusterProperties(int cells) {
        // completed tasks are kept until P6 has counted them (the default reaps them after two minutes)
        return Map.of("logging.level.root", "WARN", "logging.level.io.drover.cluster", "INFO",
                "drover.rep.timing.presence-ttl", PRESENCE_TTL.toSeconds() + "s",
                "drover.converger.interval", "5s", "drover.converger.tasks.completed-ttl", "30m");
    }

    static void awaitCells(Database db, int cells, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (db.count("SELECT count(*) FROM cells WHERE expires_at > now()") < cells) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("cells did not all register within " + timeout);
            }
            Thread.sleep(200);
        }
    }

    static List<Figure> clusterScenarios(LocalCluster cluster, Database db) throws InterruptedException {
        Figure p2 = new ConvergencePassTiming(cluster, db).run(Duration.ofSeconds(60));
        Figure p3 = new CellLoss(cluster, db).run(PRESENCE_TTL, Duration.ofSeconds(120));
        return List.of(p2, p3);
    }
}
