package io.drover.model.read;

import java.util.Arrays;

/**
 * A PostgreSQL snapshot as {@code pg_current_snapshot()} writes it ({@code xmin:xmax:xip,...}): which transactions'
 * writes a read made in it saw. A reader that builds its state from a read and then follows the lifecycle events uses
 * it to drop the events the read already showed: an event whose transaction the snapshot saw is older than the read,
 * and applying it would put back what the read had left out (a row deleted before the read, say).
 */
public final class TransactionSnapshot {

    /** Saw no transaction: every event is newer. */
    public static final TransactionSnapshot NONE = new TransactionSnapshot(0, 0, new long[0]);

    private final long xmin;
    private final long xmax;
    private final long[] inProgress;

    private TransactionSnapshot(long xmin, long xmax, long[] inProgress) {
        this.xmin = xmin;
        this.xmax = xmax;
        this.inProgress = inProgress;
    }

    /** The snapshot {@code text} names ({@code pg_snapshot}'s text form; ids as unsigned decimals). */
    public static TransactionSnapshot parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a pg_snapshot: " + text);
        }
        long[] running = parts[2].isEmpty() ? new long[0]
                : Arrays.stream(parts[2].split(",")).mapToLong(Long::parseUnsignedLong).sorted().toArray();
        return new TransactionSnapshot(Long.parseUnsignedLong(parts[0]), Long.parseUnsignedLong(parts[1]), running);
    }

    /**
     * Whether a read in this snapshot saw the writes of transaction {@code txId}, which committed (an event is
     * published only after its transaction committed): it ended before the snapshot was taken.
     */
    public boolean saw(long txId) {
        if (Long.compareUnsigned(txId, xmin) < 0) {
            return true;
        }
        return Long.compareUnsigned(txId, xmax) < 0 && Arrays.binarySearch(inProgress, txId) < 0;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder().append(Long.toUnsignedString(xmin)).append(':')
                .append(Long.toUnsignedString(xmax)).append(':');
        for (int i = 0; i < inProgress.length; i++) {
            text.append(i == 0 ? "" : ",").append(Long.toUnsignedString(inProgress[i]));
        }
        return text.toString();
    }
}
