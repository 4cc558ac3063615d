package io.drover.converger.plan;

import io.drover.model.lrp.ActualLrpKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The repairs one pass decided, by rule, in snapshot order. Actions a stale domain held back (rules 5 and 6) and
 * re-auctions beyond the per-pass limits (rules 2 and 3) are only counted: the next pass decides again.
 *
 * @param missing rule 1: indices to create, grouped per desired LRP (one auction request each)
 * @param lostCell rule 2: CLAIMED/RUNNING on an expired cell, to unclaim
 * @param staleUnclaimed rule 3: UNCLAIMED for too long, to auction again
 * @param crashRestarts rule 4: CRASHED and due, to restart
 * @param extraIndices rule 5: index at or beyond the desired instances, to retire
 * @param orphans rule 6: no desired LRP, to retire
 * @param deferredLostCell rule 2 actions left for a later pass by the rate limit
 * @param deferredStaleUnclaimed rule 3 actions left for a later pass by the rate limit
 * @param unfreshExtraIndices rule 5 actions skipped because the domain is not fresh
 * @param unfreshOrphans rule 6 actions skipped because the domain is not fresh
 * @param gracedLostCell rule 2 actions a new leader's election grace holds back ({@link ElectionGrace})
 */
public record Plan(List<MissingIndices> missing, List<ActualLrpKey> lostCell, List<ActualLrpKey> staleUnclaimed,
        List<ActualLrpKey> crashRestarts, List<ActualLrpKey> extraIndices, List<ActualLrpKey> orphans,
        int deferredLostCell, int deferredStaleUnclaimed, int unfreshExtraIndices, int unfreshOrphans,
        int gracedLostCell) {

    public Plan {
        missing = List.copyOf(missing);
        lostCell = List.copyOf(lostCell);
        staleUnclaimed = List.copyOf(staleUnclaimed);
        crashRestarts = List.copyOf(crashRestarts);
        extraIndices = List.copyOf(extraIndices);
        orphans = List.copyOf(orphans);
    }

    /** The indices of one desired LRP that have no actual LRP. */
    public record MissingIndices(String processGuid, String domain, List<Integer> indices) {

        public MissingIndices {
            indices = List.copyOf(indices);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The keys a rule acts on (rules 2 to 6). */
    public List<ActualLrpKey> keys(Rule rule) {
        return switch (rule) {
            case MISSING_INDEX -> throw new IllegalArgumentException("rule 1 creates indices, it has no keys");
            case LOST_CELL -> lostCell;
            case STALE_UNCLAIMED -> staleUnclaimed;
            case CRASH_RESTART -> crashRestarts;
            case EXTRA_INDEX -> extraIndices;
            case ORPHAN -> orphans;
        };
    }

    /** How many instances a rule acts on in this plan. */
    public int actions(Rule rule) {
        return rule == Rule.MISSING_INDEX ? missingInstances() : keys(rule).size();
    }

    /** Desired instances with no actual LRP. */
    public int missingInstances() {
        return missing.stream().mapToInt(m -> m.indices().size()).sum();
    }

    /** Actual LRPs that should not exist, whether this pass retires them or a stale domain holds them back. */
    public int extraInstances() {
        return extraIndices.size() + orphans.size() + unfreshExtraIndices + unfreshOrphans;
    }

    public int skippedUnfresh() {
        return unfreshExtraIndices + unfreshOrphans;
    }

    public int totalActions() {
        int total = 0;
        for (Rule rule : Rule.values()) {
            total += actions(rule);
        }
        return total;
    }

    /** Nothing to do and nothing held back. */
    public boolean isEmpty() {
        return totalActions() == 0 && deferredLostCell == 0 && deferredStaleUnclaimed == 0 && skippedUnfresh() == 0
                && gracedLostCell == 0;
    }

    /** Collects a plan rule by rule; {@link Convergence} fills it, tests spell out the plan they expect with it. */
    public static final class Builder {

        private final List<MissingIndices> missing = new ArrayList<>();
        private final List<ActualLrpKey> lostCell = new ArrayList<>();
        private final List<ActualLrpKey> staleUnclaimed = new ArrayList<>();
        private final List<ActualLrpKey> crashRestarts = new ArrayList<>();
        private final List<ActualLrpKey> extraIndices = new ArrayList<>();
        private final List<ActualLrpKey> orphans = new ArrayList<>();
        private int deferredLostCell;
        private int deferredStaleUnclaimed;
        private int unfreshExtraIndices;
        private int unfreshOrphans;
        private int gracedLostCell;

        private Builder() {
        }

        public Builder missing(String processGuid, String domain, List<Integer> indices) {
            missing.add(new MissingIndices(processGuid, domain, indices));
            return this;
        }

        public Builder lostCell(ActualLrpKey key) {
            lostCell.add(key);
            return this;
        }

        public Builder staleUnclaimed(ActualLrpKey key) {
            staleUnclaimed.add(key);
            return this;
        }

        public Builder crashRestart(ActualLrpKey key) {
            crashRestarts.add(key);
            return this;
        }

        public Builder extraIndex(ActualLrpKey key) {
            extraIndices.add(key);
            return this;
        }

        public Builder orphan(ActualLrpKey key) {
            orphans.add(key);
            return this;
        }

        public Builder deferredLostCell(int count) {
            deferredLostCell += count;
            return this;
        }

        public Builder deferredStaleUnclaimed(int count) {
            deferredStaleUnclaimed += count;
            return this;
        }

        public Builder unfreshExtraIndex(int count) {
            unfreshExtraIndices += count;
            return this;
        }

        public Builder unfreshOrphan(int count) {
            unfreshOrphans += count;
            return this;
        }

        public Builder gracedLostCell(int count) {
            gracedLostCell += count;
            return this;
        }

        int lostCellCount() {
            return lostCell.size();
        }

        int staleUnclaimedCount() {
            return staleUnclaimed.size();
        }

        public Plan build() {
            return new Plan(missing, lostCell, staleUnclaimed, crashRestarts, extraIndices, orphans, deferredLostCell,
                    deferredStaleUnclaimed, unfreshExtraIndices, unfreshOrphans, gracedLostCell);
        }
    }
}
