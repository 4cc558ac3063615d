package io.drover.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Asks the OS for free ports instead of hard-coding any. */
final class FreePorts {

    private FreePorts() {
    }

    static int any() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    /**
     * Whether the loopback port can be bound right now. Only a hint: another process may take it the next moment, so
     * whoever binds it must still handle the failure.
     */
    static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }
}
