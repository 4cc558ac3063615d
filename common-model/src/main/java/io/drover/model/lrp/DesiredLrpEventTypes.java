package io.drover.model.lrp;

import io.drover.model.messaging.LifecycleEvent;

/** Shorthands for the desired LRP event types. */
final class DesiredLrpEventTypes {

    static final String CREATED = LifecycleEvent.DESIRED_LRP_CREATED;
    static final String CHANGED = LifecycleEvent.DESIRED_LRP_CHANGED;
    static final String REMOVED = LifecycleEvent.DESIRED_LRP_REMOVED;

    private DesiredLrpEventTypes() {
    }
}
