package io.drover.rep.executor.process;

import io.drover.rep.executor.InsufficientResourcesException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;

/**
 * Hands out host ports from the configured range. One instance serves every cell of a rep process, so two containers
 * never share a port; a port another program is bound to is skipped (it is bound once to check). The cursor moves on
 * after each grant, so a port just released is the last to be handed out again (its old clients and TIME_WAIT
 * sockets fade first).
 */
final class HostPorts {

    private final PortRange range;

    private final BitSet reserved = new BitSet();

    private int cursor;

    HostPorts(PortRange range) {
        this.range = range;
        this.cursor = range.first();
    }

    synchronized List<Integer> reserve(int count) {
        List<Integer> granted = new ArrayList<>(count);
        for (int tried = 0; tried < range.size() && granted.size() < count; tried++) {
            int port = cursor;
            cursor = cursor == range.last() ? range.first() : cursor + 1;
            if (!reserved.get(port) && bindable(port)) {
                reserved.set(port);
                granted.add(port);
            }
        }
        if (granted.size() < count) {
            release(granted);
            throw new InsufficientResourcesException(
                    "no free host ports: needed " + count + " in " + range.first() + "-" + range.last());
        }
        return granted;
    }

    /** Re-reserves the ports of an adopted container (its process holds them, so no bind check); false on a clash. */
    synchronized boolean reserveExisting(Collection<Integer> ports) {
        boolean clash = ports.stream().anyMatch(reserved::get);
        ports.forEach(reserved::set);
        return !clash;
    }

    synchronized void release(Collection<Integer> ports) {
        ports.forEach(reserved::clear);
    }

    synchronized int reservedCount() {
        return reserved.cardinality();
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
