package io.drover.converger.pass;

/** This converger no longer holds the leader lock: the rest of its pass must not be applied. */
class LeadershipLostException extends IllegalStateException {

    LeadershipLostException(String lock, String holder) {
        super("lock " + lock + " is no longer held by " + holder);
    }
}
