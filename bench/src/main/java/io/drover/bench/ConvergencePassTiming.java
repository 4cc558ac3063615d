package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** P2: the duration of the converger's next pass over everything P1 left RUNNING, read from its own pass timer. */
final class ConvergencePassTiming {

    private final LocalCluster cluster;
    private final Database db;

    ConvergencePassTiming(LocalCluster cluster, Database db) {
        this.cluster = cluster;
        this.db = db;
    }

    Figure run(Duration timeout) throws InterruptedException {
        Timer passes = cluster.service("converger-service").getBean(MeterRegistry.class)
                .get("drover.convergence.pass.duration").timer();
        long actuals = db.count("SELECT count(*) FROM actual_lrps");
        long countBefore = passes.count();
        double totalBefore = passes.totalTime(TimeUnit.MILLISECONDS);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (passes.count() < countBefore + 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        long count = passes.count() - countBefore;
        double ms = count == 0 ? Double.NaN : (passes.totalTime(TimeUnit.MILLISECONDS) - totalBefore) / count;
        return new Figure("P2 convergence pass over %,d actuals, nothing to do".formatted(actuals),
                "%.0f ms per pass (mean of %d)".formatted(ms, count), "<= 1,000 ms", count > 0 && ms <= 1000,
                "snapshot read + pure plan + (empty) execution, measured by drover.convergence.pass.duration");
    }
}
