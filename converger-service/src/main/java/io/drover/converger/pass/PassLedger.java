package io.drover.converger.pass;

import io.drover.model.leader.LeaderPasses;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each pass's time and actions where every service can read them ({@link LeaderPasses}, loop
 * {@value #LOOP}): the dashboard's overview shows them. A write that fails is logged and the pass goes on: it is a
 * report, not part of converging.
 */
class PassLedger {

    static final String LOOP = "convergence";
    private static final Logger log = LoggerFactory.getLogger(PassLedger.class);

    private final LeaderPasses passes;
    private final Supplier<String> holder;

    PassLedger(LeaderPasses passes, Supplier<String> holder) {
        this.passes = passes;
        this.holder = holder;
    }

    void record(PassReport report) {
        try {
            passes.record(LOOP, holder.get(), report.total(), report.execution().totalApplied());
        } catch (RuntimeException e) {
            log.debug("convergence-pass-not-recorded cause={}", e.toString());
        }
    }
}
