package io.drover.auctioneer.leadership;

/** This auctioneer no longer holds the leader lock: nothing more of its round may be written. */
public final class LeadershipLostException extends IllegalStateException {

    LeadershipLostException(String lock, String holder) {
        super("lock " + lock + " is no longer held by " + holder);
    }
}
