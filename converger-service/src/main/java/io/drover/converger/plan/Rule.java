package io.drover.converger.plan;

/** The repair rules of SPEC 6 that a plan carries (rule 7, garbage collection, runs on its own schedule). */
public enum Rule {

    MISSING_INDEX(1, "missing-index", "converger: missing index"),
    LOST_CELL(2, "lost-cell", "converger: cell presence expired"),
    STALE_UNCLAIMED(3, "stale-unclaimed", "converger: unclaimed too long"),
    CRASH_RESTART(4, "crash-restart", "converger: crash back-off over"),
    EXTRA_INDEX(5, "extra-index", "converger: index beyond desired instances"),
    ORPHAN(6, "orphan", "converger: no desired LRP");

    private final int number;
    private final String tag;
    private final String reason;

    Rule(int number, String tag, String reason) {
        this.number = number;
        this.tag = tag;
        this.reason = reason;
    }

    public int number() {
        return number;
    }

    /** The stable name used in metrics tags, log keys and lifecycle reasons. */
    public String tag() {
        return tag;
    }

    /** The reason written to the audit trail and to the auction or stop requests the action causes. */
    public String reason() {
        return reason;
    }
}
