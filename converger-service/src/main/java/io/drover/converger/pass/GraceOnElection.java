package io.drover.converger.pass;

import io.drover.converger.plan.ElectionGrace;
import io.drover.model.jdbc.StorageFailures;
import io.drover.model.leader.LeaderPasses;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This leader's grace ({@link ElectionGrace}), handed to every pass's snapshot. It writes nothing: the cells it spares
 * stay expired for everyone else. A grace starts
 * <ul>
 * <li>when this instance is elected, judged through the last pass any converger recorded before ({@link PassLedger});
 * <li>with the first pass that reads the database after this instance could not reach it (a lock renewal, a cell
 * watch or a pass failed for want of it: {@link StorageFailures}), judged through this leader's last complete pass.
 * The control plane freezes rather than judges (docs/ha.md): the reps could not beat either, so the presences that
 * ran out meanwhile, or run out before each rep is back, are spared ({@link ElectionGrace#afterOutage}). An election
 * within a grace's length of such a failure gives that grace too: a leader that lost its lock to the outage, or a
 * standby that won it when the database came back.
 * </ul>
 */
class GraceOnElection {

    private static final Logger log = LoggerFactory.getLogger(GraceOnElection.class);

    private final LeaderPasses passes;
    private final Clock clock;
    private final Duration grace;
    private volatile ElectionGrace current = ElectionGrace.NONE;
    /** When a round trip last failed for want of the database, since the last grace began (null: none). */
    private Instant unreachableAt;
    /** When this leader's last complete pass read its snapshot (null: none since its election). */
    private Instant judgedThrough;

    GraceOnElection(LeaderPasses passes, Clock clock, Duration grace) {
        this.passes = passes;
        this.clock = clock;
        this.grace = grace;
    }

    /** This instance was just elected: the cells that died since the last pass anyone finished are spared a while. */
    void elected() {
        Instant lastPass = passes.last(PassLedger.LOOP).map(LeaderPasses.Pass::finishedAt).orElse(null);
        synchronized (this) {
            Instant now = clock.instant();
            boolean afterOutage = unreachableAt != null && unreachableAt.isAfter(now.minus(grace));
            current = afterOutage ? ElectionGrace.afterOutage(lastPass, now, grace)
                    : ElectionGrace.of(lastPass, now, grace);
            unreachableAt = null;
            judgedThrough = null;
            log.info("converger-elected-cell-grace judged_through={} until={}{}", lastPass == null ? "never" : lastPass,
                    current.until(), afterOutage ? " after=database-unreachable" : "");
        }
    }

    /** A round trip to the database failed: if for want of the database, the next pass freezes rather than judges. */
    synchronized void failed(RuntimeException e) {
        if (StorageFailures.isUnavailable(e)) {
            unreachableAt = clock.instant();
        }
    }

    /**
     * The grace of a pass that reads the database at {@code now} (inside its snapshot): the first such pass after the
     * database could not be reached starts one.
     */
    synchronized ElectionGrace at(Instant now) {
        if (unreachableAt != null) {
            Instant through = judgedThrough != null ? judgedThrough : current.judgedThrough();
            current = ElectionGrace.afterOutage(through.equals(Instant.MIN) ? null : through, now, grace);
            unreachableAt = null;
            log.info("converger-database-back-cell-grace judged_through={} until={}",
                    through.equals(Instant.MIN) ? "never" : through, current.until());
        }
        return current;
    }

    /** A pass that read its snapshot at {@code snapshotTime} is complete: the cells it saw dead were judged. */
    synchronized void judged(Instant snapshotTime) {
        judgedThrough = snapshotTime;
    }

    ElectionGrace current() {
        return current;
    }
}
