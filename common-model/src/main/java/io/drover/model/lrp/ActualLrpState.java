package io.drover.model.lrp;

/** The four states of an {@link ActualLrp} (SPEC 3.1). */
public enum ActualLrpState {
    /** Wanted and being scheduled: no owner, maybe a placement in flight or a placement error. */
    UNCLAIMED,
    /** A cell owns it and is starting it. */
    CLAIMED,
    /** Started and healthy, with network info. */
    RUNNING,
    /** Crashed and waiting for its back-off before a restart. */
    CRASHED
}
