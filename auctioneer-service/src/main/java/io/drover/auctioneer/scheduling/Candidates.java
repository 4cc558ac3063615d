package io.drover.auctioneer.scheduling;

/**
 * The cells one kind of work may run on (its rootfs is listed, its placement tags are accepted), grouped by zone; or
 * the error when there are none. Shared by all work with the same rootfs and tags.
 */
record Candidates(String error, int[] zones, int[][] cellsByZone) {

    static Candidates none(String error) {
        return new Candidates(error, new int[0], new int[0][]);
    }
}
