package io.drover.converger.plan;

/** The repair rules of SPEC 6 that a plan carries (rule 7, garbage collection, runs on its own schedule). */
public enum Rule {

    MISSING_INDEX(1, "missing-index"),
    LOST_CELL(2, "lost-cell"),
    STALE_UNCLAIMED(3, "stale-unclaimed"),
    CRASH_RESTART(4, "crash-restart"),
    EXTRA_INDEX(5, "extra-index"),
    ORPHAN(6, "orphan");

    private final int number;
    private final String tag;

    Rule(int number, String tag) {
        this.number = number;
        this.tag = tag;
    }

    public int number() {
        return number;
    }

    /** The stable name used in metrics tags, log keys and lifecycle reasons. */
    public String tag() {
        return tag;
    }
}
