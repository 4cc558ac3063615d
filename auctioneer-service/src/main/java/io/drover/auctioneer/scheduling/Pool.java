package io.drover.auctioneer.scheduling;

import java.util.TreeSet;

/**
 * Candidate cells of one kind of work in one zone that have the same capacity, ordered by their current load. For
 * cells of equal capacity an instance adds the same amount to every cell's score, so the least loaded cell that fits is
 * the best one: a pick reads the head of the pool instead of scanning the zone.
 */
final class Pool {

    private final TreeSet<Integer> cells;

    Pool(Fleet fleet) {
        this.cells = new TreeSet<>(fleet.byLoad());
    }

    void add(int cell) {
        cells.add(cell);
    }

    void remove(int cell) {
        cells.remove(cell);
    }

    /** The least loaded cell that fits the work and holds no instance of its LRP yet, or -1. */
    int leastLoadedFit(Fleet fleet, Work w, int[] instancesHere) {
        for (int cell : cells) {
            if (instancesHere[cell] == 0 && fleet.fits(cell, w)) {
                return cell;
            }
        }
        return -1;
    }
}
