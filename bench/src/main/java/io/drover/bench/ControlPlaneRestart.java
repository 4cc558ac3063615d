package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * R: a restart of the control plane over what the run left (issue 41: a cluster with a million instances recorded is
 * up and converged, issuing no work, within 60 s). The receptor, auctioneer, converger and router stop together, as in
 * an upgrade of the control plane, and start again side by side while the cells keep running; "up" is when the last of
 * them has started, "converged" when the new converger's first pass has finished. No work issued: not one lifecycle
 * event is written from the stop until that pass.
 */
final class ControlPlaneRestart {

    static final Duration TARGET = Duration.ofSeconds(60);
    private static final List<String> SERVICES = List.of("receptor-service", "auctioneer-service",
            "converger-service", "router-service");

    private final LocalCluster cluster;
    private final Database db;

    ControlPlaneRestart(LocalCluster cluster, Database db) {
        this.cluster = cluster;
        this.db = db;
    }

    Figure run(Duration timeout) throws InterruptedException {
        long instances = db.count("SELECT count(*) FROM actual_lrps");
        String scenario = "R control plane restart over %,d instances".formatted(instances);
        String target = "converged <= %d s, no work issued".formatted(TARGET.toSeconds());
        long eventsBefore = quiet(Duration.ofMinutes(1));
        for (ConfigurableApplicationContext service : cluster.services()) {
            service.close();
        }
        long started = System.nanoTime();
        List<CompletableFuture<ConfigurableApplicationContext>> starting = SERVICES.stream()
                .map(name -> CompletableFuture.supplyAsync(() -> cluster.startService(name, Map.of())))
                .toList();
        try {
            CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            return new Figure(scenario, "a service did not start again", target, false, e.toString());
        }
        Duration up = Duration.ofNanos(System.nanoTime() - started);
        Timer passes = cluster.service("converger-service").getBean(MeterRegistry.class)
                .get("drover.convergence.pass.duration").timer();
        long deadline = started + timeout.toNanos();
        while (passes.count() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Duration converged = Duration.ofNanos(System.nanoTime() - started);
        long events = db.count("SELECT count(*) FROM lrp_events WHERE id > ?", eventsBefore);
        if (passes.count() < 1) {
            return new Figure(scenario, "up in %.1f s; no convergence pass within %d s".formatted(seconds(up),
                    timeout.toSeconds()), target, false, "the new converger never finished a pass");
        }
        return new Figure(scenario, "up in %.1f s, converged (first pass done) after %.1f s, %,d events written"
                .formatted(seconds(up), seconds(converged), events), target,
                converged.compareTo(TARGET) <= 0 && events == 0,
                "receptor, auctioneer, converger and router stopped together and started side by side while the cells "
                        + "ran on; the first pass took %.0f ms".formatted(passes.totalTime(
                                TimeUnit.MILLISECONDS)));
    }

    /**
     * Waits until no lifecycle event has been written for 3 s (what the run before asked for, such as twins of P7
     * still stopping, is done), at most {@code longest}; returns the last event's id.
     */
    private long quiet(Duration longest) throws InterruptedException {
        long deadline = System.nanoTime() + longest.toNanos();
        long last = -1;
        int still = 0;
        while (still < 3 && System.nanoTime() < deadline) {
            long now = db.count("SELECT coalesce(max(id), 0) FROM lrp_events");
            still = now == last ? still + 1 : 0;
            last = now;
            Thread.sleep(1_000);
        }
        return last;
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }
}
