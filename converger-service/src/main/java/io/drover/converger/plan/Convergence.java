package io.drover.converger.plan;

import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.model.time.Instants;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of SPEC 6 as one pure function: {@link #plan} compares a snapshot of desired and actual state and says
 * what to repair. One named method per rule. It walks the actual LRPs once, allocating only for the actions it plans,
 * so it stays far below a second for 100,000 actual LRPs.
 *
 * <p>An actual LRP that is not wanted (rules 5 and 6) is only ever retired, never restarted or re-auctioned, and only
 * when its domain is fresh: without a fresh domain the converger stops nothing.
 */
public class Convergence {

    private final CrashRestartPolicy restartPolicy;
    private final long staleUnclaimedMillis;
    private final long maxUnclaimedWaitMillis;
    private final long stageLagToleranceMillis;
    private final int maxLostCellUnclaims;
    private final int maxStaleUnclaims;

    /**
     * @param staleUnclaimedAfter an UNCLAIMED instance whose request the pipeline passed longer ago than this is
     *     auctioned again (rule 3)
     * @param maxUnclaimedWait an UNCLAIMED instance untouched for longer is auctioned again however far the pipeline
     *     got (a stage that stopped reporting, or a cell that beats but never takes its placements up)
     * @param stageLagTolerance a stage less far behind than this counts as caught up: its reports come with the cells'
     *     heartbeats or twice a second, so a smaller lag is the age of a report, not a queue
     * @param maxLostCellUnclaims at most this many rule 2 unclaims per pass; the rest wait for the next pass
     * @param maxStaleUnclaims at most this many rule 3 re-auctions per pass; the rest wait for the next pass
     */
    public Convergence(CrashRestartPolicy restartPolicy, Duration staleUnclaimedAfter, Duration maxUnclaimedWait,
            Duration stageLagTolerance, int maxLostCellUnclaims, int maxStaleUnclaims) {
        if (maxLostCellUnclaims < 1 || maxStaleUnclaims < 1) {
            throw new IllegalArgumentException("the per-pass limits must be at least 1");
        }
        if (maxUnclaimedWait.compareTo(staleUnclaimedAfter) < 0) {
            throw new IllegalArgumentException("max-unclaimed-wait must not be shorter than stale-unclaimed-after");
        }
        this.restartPolicy = restartPolicy;
        this.staleUnclaimedMillis = staleUnclaimedAfter.toMillis();
        this.maxUnclaimedWaitMillis = maxUnclaimedWait.toMillis();
        this.stageLagToleranceMillis = stageLagTolerance.toMillis();
        this.maxLostCellUnclaims = maxLostCellUnclaims;
        this.maxStaleUnclaims = maxStaleUnclaims;
    }

    public Plan plan(ConvergenceSnapshot snapshot) {
        Plan.Builder plan = Plan.builder();
        Map<String, Desired> desired = byProcessGuid(snapshot.desired());
        Map<String, BitSet> present = new HashMap<>(desired.size() * 2);
        for (Actual actual : snapshot.actuals()) {
            Desired wanted = desired.get(actual.processGuid());
            if (wanted == null) {
                orphan(actual, snapshot, plan);
                continue;
            }
            present.computeIfAbsent(actual.processGuid(), guid -> new BitSet(wanted.instances())).set(actual.index());
            if (actual.index() >= wanted.instances()) {
                extraIndex(actual, snapshot, plan);
                continue;
            }
            switch (actual.state()) {
                case CLAIMED, RUNNING -> lostCell(actual, snapshot, plan);
                case UNCLAIMED -> staleUnclaimed(actual, snapshot, plan);
                case CRASHED -> crashRestart(actual, snapshot.now(), plan);
            }
        }
        for (Desired wanted : snapshot.desired()) {
            if (!snapshot.wholeLrps().contains(wanted.processGuid())) {
                missingIndices(wanted, present.get(wanted.processGuid()), plan);
            }
        }
        return plan.build();
    }

    /**
     * Rule 1: a desired index below {@code instances} with no actual LRP is created UNCLAIMED and auctioned (never for
     * an LRP the snapshot knows whole, of which it may list only some instances).
     */
    private static void missingIndices(Desired wanted, BitSet present, Plan.Builder plan) {
        int firstMissing = present == null ? 0 : present.nextClearBit(0);
        if (firstMissing >= wanted.instances()) {
            return;
        }
        List<Integer> missing = new ArrayList<>();
        for (int index = firstMissing; index < wanted.instances(); index++) {
            if (present == null || !present.get(index)) {
                missing.add(index);
            }
        }
        plan.missing(wanted.processGuid(), wanted.domain(), missing);
    }

    /**
     * Rule 2: CLAIMED or RUNNING on a cell whose presence expired is unclaimed and auctioned, a few per pass; not while
     * a new leader's grace spares that cell ({@link ElectionGrace}), which is only counted.
     */
    private void lostCell(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        if (snapshot.liveCells().contains(actual.cellId())) {
            return;
        }
        if (!snapshot.isLost(actual.cellId())) {
            plan.gracedLostCell(1);
            return;
        }
        if (plan.lostCellCount() < maxLostCellUnclaims) {
            plan.lostCell(actual.key());
        } else {
            plan.deferredLostCell(1);
        }
    }

    /**
     * Rule 3: an UNCLAIMED instance is auctioned again once the stage it waits on has passed its request by more than
     * the limit: the auction (not placed: since its last change) or the cell it was placed on (since the placement),
     * each never ahead of the relay. A request a stage has not reached yet is queued, not lost: re-auctioning it would
     * only add to the queue it waits in. One placed on a cell whose presence expired goes at once, since that cell will
     * never claim it; one untouched for {@code maxUnclaimedWait} goes whatever the pipeline says. A few per pass.
     */
    private void staleUnclaimed(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        if (!placedOnLostCell(actual, snapshot) && !passedByThePipeline(actual, snapshot)) {
            return;
        }
        if (plan.staleUnclaimedCount() < maxStaleUnclaims) {
            plan.staleUnclaimed(actual.key());
        } else {
            plan.deferredStaleUnclaimed(1);
        }
    }

    private static boolean placedOnLostCell(Actual actual, ConvergenceSnapshot snapshot) {
        return actual.placedCellId() != null && !snapshot.liveCells().contains(actual.placedCellId());
    }

    private boolean passedByThePipeline(Actual actual, ConvergenceSnapshot snapshot) {
        boolean placed = actual.placedCellId() != null && actual.placedAt() != null;
        Instant asked = Instants.later(actual.since(), placed ? actual.placedAt() : null);
        Instant through = placed ? snapshot.pipeline().placementsTakenUp(actual.placedCellId())
                : snapshot.pipeline().auctioned();
        long askedMillis = asked.toEpochMilli();
        long nowMillis = snapshot.now().toEpochMilli();
        long throughMillis = nowMillis - through.toEpochMilli() < stageLagToleranceMillis ? nowMillis
                : through.toEpochMilli();
        return throughMillis - askedMillis > staleUnclaimedMillis
                || nowMillis - askedMillis > maxUnclaimedWaitMillis;
    }

    /** Rule 4: CRASHED whose back-off is over (per the restart policy) goes back to UNCLAIMED and is auctioned. */
    private void crashRestart(Actual actual, Instant now, Plan.Builder plan) {
        if (restartPolicy.isDue(actual.crashCount(), actual.since(), now)) {
            plan.crashRestart(actual.key());
        }
    }

    /** Rule 5: an index at or beyond the desired instances is retired, if its domain is fresh. */
    private static void extraIndex(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        if (snapshot.freshDomains().contains(actual.domain())) {
            plan.extraIndex(actual.key());
        } else {
            plan.unfreshExtraIndex(1);
        }
    }

    /** Rule 6: an actual LRP with no desired LRP is retired, if its domain is fresh. */
    private static void orphan(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        if (snapshot.freshDomains().contains(actual.domain())) {
            plan.orphan(actual.key());
        } else {
            plan.unfreshOrphan(1);
        }
    }

    private static Map<String, Desired> byProcessGuid(List<Desired> desired) {
        Map<String, Desired> byGuid = new HashMap<>(desired.size() * 2);
        for (Desired d : desired) {
            byGuid.put(d.processGuid(), d);
        }
        return byGuid;
    }
}
