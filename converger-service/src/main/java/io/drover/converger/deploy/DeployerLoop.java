package io.drover.converger.deploy;

import io.drover.converger.LeaderTicker;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Ticks the deployer every interval on one thread, on the converger's leader only (standbys keep the timer). */
class DeployerLoop extends LeaderTicker {

    private static final Logger log = LoggerFactory.getLogger(DeployerLoop.class);

    private final Deployer deployer;

    DeployerLoop(Deployer deployer, BooleanSupplier leader, long intervalMillis) {
        super("deployer", leader, intervalMillis);
        this.deployer = deployer;
    }

    @Override
    protected void tickAsLeader() {
        try {
            deployer.tick();
        } catch (RuntimeException e) {
            log.warn("deployer-tick-failed cause={}", e.toString());
        }
    }
}
