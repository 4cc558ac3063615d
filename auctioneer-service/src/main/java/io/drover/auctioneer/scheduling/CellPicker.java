package io.drover.auctioneer.scheduling;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Finds the cell an instance goes to: among its candidates that fit, those in the zones holding the fewest instances
 * of its LRP, the lowest score (ties to the lowest cell id). Cells already holding the LRP are few and checked one by
 * one; for the rest each pool's least loaded fitting cell is its best, so a pick costs a few pool heads, not a scan of
 * the fleet.
 */
final class CellPicker {

    private final Fleet fleet;
    private final int[] instancesHere;

    CellPicker(Fleet fleet) {
        this.fleet = fleet;
        this.instancesHere = new int[fleet.size()];
    }

    /** The chosen cell, or -1 when no candidate fits. */
    int pick(Candidates candidates, Work w) {
        Spread spread = fleet.spreadOf(w);
        Integer[] order = zonesByInstances(candidates, spread);
        spread.writeTo(instancesHere);
        try {
            int i = 0;
            while (i < order.length) {
                int level = spread.inZone(candidates.zones[order[i]]);
                Best best = new Best(w);
                for (; i < order.length && spread.inZone(candidates.zones[order[i]]) == level; i++) {
                    consider(candidates, order[i], w, best);
                }
                spread.forEachCell(cell -> {
                    if (candidates.contains(cell) && spread.inZone(fleet.zoneOf(cell)) == level) {
                        best.consider(cell);
                    }
                });
                if (best.cell >= 0) {
                    return best.cell;
                }
            }
            return -1;
        } finally {
            spread.clear(instancesHere);
        }
    }

    /** Offers the best cells of one zone: each pool's head, or every cell of a zone without pools. */
    private void consider(Candidates candidates, int zone, Work w, Best best) {
        Pool[] pools = candidates.poolsByZone[zone];
        if (pools == null) {
            for (int cell : candidates.cellsByZone[zone]) {
                best.consider(cell);
            }
            return;
        }
        for (Pool pool : pools) {
            best.consider(pool.leastLoadedFit(fleet, w, instancesHere));
        }
    }

    /** Positions into the candidates' zones, the zones holding fewest instances of this LRP first. */
    private static Integer[] zonesByInstances(Candidates candidates, Spread spread) {
        Integer[] order = new Integer[candidates.zones.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingInt((Integer i) -> spread.inZone(candidates.zones[i]))
                .thenComparingInt(i -> i));
        return order;
    }

    /** The best cell seen so far at one zone level. */
    private final class Best {

        private final Work work;
        int cell = -1;
        double score = Double.POSITIVE_INFINITY;

        Best(Work work) {
            this.work = work;
        }

        void consider(int candidate) {
            if (candidate < 0 || !fleet.fits(candidate, work)) {
                return;
            }
            double s = fleet.score(candidate, work, instancesHere[candidate]);
            if (s < score || (s == score && candidate < cell)) {
                score = s;
                cell = candidate;
            }
        }
    }
}
