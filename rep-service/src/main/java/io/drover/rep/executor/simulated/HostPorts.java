package io.drover.rep.executor.simulated;

import java.util.BitSet;
import java.util.OptionalInt;

/** Host ports of one simulated cell: handed out round-robin from a range, never two at once, reused after release. */
final class HostPorts {

    private final int first;
    private final int size;
    private final BitSet used;
    private int cursor;

    HostPorts(int first, int last) {
        this.first = first;
        this.size = last - first + 1;
        this.used = new BitSet(size);
    }

    synchronized OptionalInt allocate() {
        int free = used.nextClearBit(cursor);
        if (free >= size) {
            free = used.nextClearBit(0);
        }
        if (free >= size) {
            return OptionalInt.empty();
        }
        used.set(free);
        cursor = (free + 1) % size;
        return OptionalInt.of(first + free);
    }

    synchronized void release(int port) {
        used.clear(port - first);
    }

    synchronized int inUse() {
        return used.cardinality();
    }
}
