package io.drover.model.leader;

/**
 * A {@link LeadershipFence} found that this instance no longer holds its lock: nothing more of what it decided as the
 * leader may be written.
 */
public final class LeadershipLostException extends IllegalStateException {

    LeadershipLostException(String lock, String holder) {
        super("lock " + lock + " is no longer held by " + holder);
    }
}
