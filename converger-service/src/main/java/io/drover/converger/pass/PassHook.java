package io.drover.converger.pass;

import io.drover.converger.plan.Plan;

/**
 * Called by a pass between planning and applying its plan. Production has none ({@link #NONE}); failover tests
 * register one as a bean to freeze a leader right after it read its snapshot.
 */
interface PassHook {

    PassHook NONE = plan -> {
    };

    void beforeApplying(Plan plan);
}
