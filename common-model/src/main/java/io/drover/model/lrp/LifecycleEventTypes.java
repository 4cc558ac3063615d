package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;

/** Shorthands for the actual LRP event types. */
final class LifecycleEventTypes {

    static final String CHANGED = LifecycleEvent.ACTUAL_LRP_CHANGED;
    static final String CRASHED = LifecycleEvent.ACTUAL_LRP_CRASHED;

    private LifecycleEventTypes() {
    }
}
