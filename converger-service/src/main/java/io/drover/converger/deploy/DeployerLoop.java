package io.drover.converger.deploy;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Ticks the deployer every interval on one thread, on the converger's leader only (standbys keep the timer). */
class DeployerLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeployerLoop.class);

    private final Deployer deployer;
    private final BooleanSupplier leader;
    private final long intervalMillis;
    private ScheduledExecutorService thread;

    DeployerLoop(Deployer deployer, BooleanSupplier leader, long intervalMillis) {
        this.deployer = deployer;
        this.leader = leader;
        this.intervalMillis = intervalMillis;
    }

    private void tick() {
        if (!leader.getAsBoolean()) {
            return;
        }
        try {
            deployer.tick();
        } catch (RuntimeException e) {
            log.warn("deployer-tick-failed cause={}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "deployer");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}
