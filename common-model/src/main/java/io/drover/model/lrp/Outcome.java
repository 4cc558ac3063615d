package io.drover.model.lrp;

/** What one item of a lifecycle batch came to. */
public record Outcome(Kind kind, String message) {

    public static final Outcome CHANGED = new Outcome(Kind.CHANGED, null);
    public static final Outcome NO_OP = new Outcome(Kind.NO_OP, null);
    public static final Outcome NOT_FOUND = new Outcome(Kind.NOT_FOUND, "not found");

    public static Outcome rejected(String message) {
        return new Outcome(Kind.REJECTED, message);
    }

    public boolean succeeded() {
        return kind == Kind.CHANGED || kind == Kind.NO_OP;
    }

    /** CHANGED and NO_OP succeed; REJECTED is an illegal transition; NOT_FOUND means there is no such record. */
    public enum Kind {
        CHANGED, NO_OP, REJECTED, NOT_FOUND
    }
}
