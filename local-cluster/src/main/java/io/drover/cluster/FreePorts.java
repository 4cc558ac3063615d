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

    /** {@code preferred} when it is free, otherwise any free port; 0 means any. */
    static int preferring(int preferred) {
        if (preferred > 0) {
            try (ServerSocket socket = new ServerSocket(preferred, 1, InetAddress.getLoopbackAddress())) {
                return preferred;
            } catch (IOException busy) {
                return any();
            }
        }
        return any();
    }
}
