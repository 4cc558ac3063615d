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
    /** Keyed by process_guid: the lifecycle to every converger, a change that asks for a pass. */
    public static final String CONVERGENCE_REQUESTS = "drover.convergence.requests";

    /**
     * Header of every lifecycle event record: its {@code type} (e.g. {@code actual_lrp_changed}), so a consumer that
     * wants a few kinds of event can skip the others without parsing them.
     */
    public static final String EVENT_TYPE_HEADER = "drover-event-type";

    /**
     * Header of every lifecycle event record: its place in the stream, {@code EventPosition#text()} (the writing
     * transaction's id and the row's, in hexadecimal). A consumer that read the database and then follows the topic
     * drops the events of transactions its read already saw ({@code TransactionSnapshot#saw}).
     */
    public static final String EVENT_POSITION_HEADER = "drover-event-position";

    /**
     * Header of every command record (start, stop, cancel requests, auction results, convergence requests): its
     * {@link Command#messageType()}, e.g. {@code tasks_placed}, so the per-cell topics carry instances' and tasks' work
     * in message types of their own and a consumer knows which it holds before it parses. A record without it predates
     * the header and has its topic's original shape.
     */
    public static final String MESSAGE_TYPE_HEADER = "drover-message-type";

    /**
     * The largest message a producer sends and a topic accepts (Kafka's default is 1 MiB). The receptor takes bodies
     * up to 1 MiB; a change event carries the snapshot before and after, and the routes inside a snapshot are a JSON
     * string whose escaping can double them: about 4 MiB at worst. A message over the limit would be refused for good
     * and hold up every outbox row after it, so the limit leaves four times that.
     */
    public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private Topics() {
    }
}
