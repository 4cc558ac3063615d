package io.drover.model.messaging;

/** Drover's Kafka topics (SPEC 4). */
public final class Topics {

    /** Keyed by process_guid: receptor, converger, lifecycle to the auctioneer. */
    public static final String START_REQUESTS = "drover.lrp.start-requests";
    /** Keyed by cell_id: auctioneer to the rep of that cell. */
    public static final String AUCTION_RESULTS = "drover.auction.results";
    /** Keyed by cell_id: receptor, converger to the rep of that cell. */
    public static final String STOP_REQUESTS = "drover.lrp.stop-requests";
    /** Keyed by process_guid: every change of a desired or actual LRP, for the receptor's SSE and anyone else. */
    public static final String LIFECYCLE_EVENTS = "drover.lifecycle.events";

    private Topics() {
    }
}
