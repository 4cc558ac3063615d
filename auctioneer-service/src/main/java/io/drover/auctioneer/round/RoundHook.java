package io.drover.auctioneer.round;

import io.drover.auctioneer.scheduling.Schedule;

/**
 * Called by a round between deciding and committing. Production has none ({@link #NONE}); failover tests register one
 * as a bean to freeze a leader right after its decision.
 */
interface RoundHook {

    RoundHook NONE = schedule -> {
    };

    void beforeCommitting(Schedule schedule);
}
