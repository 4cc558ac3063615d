package io.drover.model.messaging;

import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A place in the stream of lifecycle events: the id of the transaction that wrote the {@code lrp_events} row and the
 * row's own id. Events are published in this order, {@code (tx_id, id)}, by the relay and by the receptor's stream,
 * and a row is handed out only once no transaction that could still commit a row before it is running (see
 * {@link LifecycleEventRows}), so "the events after a position" never changes once a client has seen the position.
 *
 * <p>As text (an SSE {@code id:}) it is both numbers in hexadecimal, 16 digits each: {@code 00000000000002e5-
 * 0000000000003039}. Fixed width, so the texts sort as the positions do.
 */
public record EventPosition(long txId, long id) implements Comparable<EventPosition> {

    /** Before every event. */
    public static final EventPosition START = new EventPosition(0, 0);

    private static final HexFormat HEX = HexFormat.of();
    private static final Pattern TEXT = Pattern.compile("[0-9a-f]{16}-[0-9a-f]{16}");

    /** The position a text names, or empty when it is not one (the text comes from a client). */
    public static Optional<EventPosition> parse(String text) {
        if (text == null || !TEXT.matcher(text).matches()) {
            return Optional.empty();
        }
        long id = Long.parseUnsignedLong(text.substring(17), 16);
        if (id < 0) {
            return Optional.empty(); // no bigserial gets there
        }
        return Optional.of(new EventPosition(Long.parseUnsignedLong(text.substring(0, 16), 16), id));
    }

    /** The position just before this one: the events after it start with this one. */
    public EventPosition justBefore() {
        return id == 0 ? this : new EventPosition(txId, id - 1);
    }

    /** The transaction id as PostgreSQL writes an {@code xid8} (unsigned decimal). */
    public String txIdText() {
        return Long.toUnsignedString(txId);
    }

    /** The position of the row {@code id} written by transaction {@code txIdText} (an {@code xid8} as text). */
    public static EventPosition of(String txIdText, long id) {
        return new EventPosition(Long.parseUnsignedLong(txIdText), id);
    }

    @Override
    public int compareTo(EventPosition other) {
        int byTransaction = Long.compareUnsigned(txId, other.txId);
        return byTransaction != 0 ? byTransaction : Long.compare(id, other.id);
    }

    public boolean isAfter(EventPosition other) {
        return compareTo(other) > 0;
    }

    /** The SSE id. */
    public String text() {
        return HEX.toHexDigits(txId) + "-" + HEX.toHexDigits(id);
    }

    @Override
    public String toString() {
        return text();
    }
}
