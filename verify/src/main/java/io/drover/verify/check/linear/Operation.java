package io.drover.verify.check.linear;

/**
 * One completed (or possibly completed) operation of a concurrent history: who called it, with what input, what it
 * returned, and when it was called and returned. An operation whose outcome is unknown (a timeout, a lost answer)
 * returns at {@link #NEVER}: it may take effect at any moment after its call, or not at all.
 */
public record Operation<I, O>(String client, I input, O output, long call, long ret) {

    public static final long NEVER = Long.MAX_VALUE;

    public Operation {
        if (ret < call) {
            throw new IllegalArgumentException("returns before it is called: " + call + " > " + ret);
        }
    }
}
