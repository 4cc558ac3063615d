package io.drover.converger.pass;

import io.drover.converger.plan.ElectionGrace;
import io.drover.model.leader.LeaderPasses;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This leader's election grace ({@link ElectionGrace}): taken when it is elected, from the last pass any converger
 * recorded before ({@link PassLedger}), and handed to every pass's snapshot. It writes nothing: the cells it spares
 * stay expired for everyone else.
 */
class GraceOnElection {

    private static final Logger log = LoggerFactory.getLogger(GraceOnElection.class);

    private final LeaderPasses passes;
    private final Clock clock;
    private final Duration grace;
    private volatile ElectionGrace current = ElectionGrace.NONE;

    GraceOnElection(LeaderPasses passes, Clock clock, Duration grace) {
        this.passes = passes;
        this.clock = clock;
        this.grace = grace;
    }

    /** This instance was just elected: the cells that died since the last pass anyone finished are spared a while. */
    void elected() {
        Instant now = clock.instant();
        Instant lastPass = passes.last(PassLedger.LOOP).map(LeaderPasses.Pass::finishedAt).orElse(null);
        current = ElectionGrace.of(lastPass, now, grace);
        log.info("converger-elected-cell-grace judged_through={} until={}", lastPass == null ? "never" : lastPass,
                current.until());
    }

    ElectionGrace current() {
        return current;
    }
}
