package io.drover.auctioneer.scheduling;

import java.util.BitSet;

/**
 * The cells one kind of work may run on (its rootfs is listed, its placement tags are accepted), grouped by zone and,
 * within a zone, into pools of equal capacity; or the error when there are none. Shared by all work with the same
 * rootfs and tags.
 */
final class Candidates {

    final String error;
    /** Zone ids that have candidates; the arrays below are indexed like this one. */
    final int[] zones;
    final int[][] cellsByZone;
    /** Per zone, its pools of equal capacity, or null when the zone is scanned cell by cell. */
    final Pool[][] poolsByZone;
    private final BitSet members;

    Candidates(int[] zones, int[][] cellsByZone, Pool[][] poolsByZone) {
        this.error = null;
        this.zones = zones;
        this.cellsByZone = cellsByZone;
        this.poolsByZone = poolsByZone;
        this.members = new BitSet();
        for (int[] cells : cellsByZone) {
            for (int cell : cells) {
                members.set(cell);
            }
        }
    }

    private Candidates(String error) {
        this.error = error;
        this.zones = new int[0];
        this.cellsByZone = new int[0][];
        this.poolsByZone = new Pool[0][];
        this.members = new BitSet();
    }

    static Candidates none(String error) {
        return new Candidates(error);
    }

    boolean contains(int cell) {
        return members.get(cell);
    }
}
