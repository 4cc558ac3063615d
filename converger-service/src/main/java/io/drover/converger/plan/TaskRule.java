package io.drover.converger.plan;

/** The converger's task rules (SPEC 13), each with the reason it writes. */
public enum TaskRule {

    PLACEMENT_RETRY("task-placement-retry", "converger: not started in time, auctioned again"),
    PLACEMENT_GIVEN_UP("task-placement-given-up", "not placed after the last placement attempt"),
    LOST_CELL("task-lost-cell", "cell disappeared before completion"),
    PENDING_TOO_LONG("task-pending-too-long", "not started within time limit"),
    STALE_RESOLVING("task-stale-resolving", "converger: resolving took too long"),
    EXPIRED("task-expired", "converger: completed and not resolved in time");

    private final String tag;
    private final String reason;

    TaskRule(String tag, String reason) {
        this.tag = tag;
        this.reason = reason;
    }

    /** The stable name in metrics tags and log keys. */
    public String tag() {
        return tag;
    }

    /** What the audit trail (and, for failed tasks, the failure reason) says. */
    public String reason() {
        return reason;
    }
}
