package io.drover.converger.plan;

import io.drover.converger.plan.ConvergenceSnapshot.Actual;
import io.drover.converger.plan.ConvergenceSnapshot.Desired;
import io.drover.model.lrp.CrashRestartPolicy;
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
    private final int maxLostCellUnclaims;
    private final int maxStaleUnclaims;

    /**
     * @param staleUnclaimedAfter an UNCLAIMED instance untouched (no change, no placement) for longer is auctioned again
     * @param maxLostCellUnclaims at most this many rule 2 unclaims per pass; the rest wait for the next pass
     * @param maxStaleUnclaims at most this many rule 3 re-auctions per pass; the rest wait for the next pass
     */
    public Convergence(CrashRestartPolicy restartPolicy, Duration staleUnclaimedAfter, int maxLostCellUnclaims,
            int maxStaleUnclaims) {
        if (maxLostCellUnclaims < 1 || maxStaleUnclaims < 1) {
            throw new IllegalArgumentException("the per-pass limits must be at least 1");
        }
        this.restartPolicy = restartPolicy;
        this.staleUnclaimedMillis = staleUnclaimedAfter.toMillis();
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
            missingIndices(wanted, present.get(wanted.processGuid()), plan);
        }
        return plan.build();
    }

    /** Rule 1: a desired index below {@code instances} with no actual LRP is created UNCLAIMED and auctioned. */
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

    /** Rule 2: CLAIMED or RUNNING on a cell whose presence expired is unclaimed and auctioned, a few per pass. */
    private void lostCell(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        if (snapshot.liveCells().contains(actual.cellId())) {
            return;
        }
        if (plan.lostCellCount() < maxLostCellUnclaims) {
            plan.lostCell(actual.key());
        } else {
            plan.deferredLostCell(1);
        }
    }

    /**
     * Rule 3: UNCLAIMED for longer than the limit since its last change or placement is auctioned again; so is one
     * placed on a cell whose presence expired, at once, since that cell will never claim it. A few per pass: when the
     * cells fall behind under a burst, re-auctioning everything they have not claimed yet only adds to their queue.
     */
    private void staleUnclaimed(Actual actual, ConvergenceSnapshot snapshot, Plan.Builder plan) {
        boolean placedOnLostCell = actual.placedCellId() != null
                && !snapshot.liveCells().contains(actual.placedCellId());
        Instant lastTouched = actual.placedAt() != null && actual.placedAt().isAfter(actual.since())
                ? actual.placedAt() : actual.since();
        if (!placedOnLostCell && snapshot.now().toEpochMilli() - lastTouched.toEpochMilli() <= staleUnclaimedMillis) {
            return;
        }
        if (plan.staleUnclaimedCount() < maxStaleUnclaims) {
            plan.staleUnclaimed(actual.key());
        } else {
            plan.deferredStaleUnclaimed(1);
        }
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
