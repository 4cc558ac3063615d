package io.drover.receptor.web.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The dev mode switches authentication off, so it is only allowed when the server listens on a loopback address
 * ({@code server.address=127.0.0.1}); anywhere else the receptor refuses to start.
 */
final class DevMode {

    private DevMode() {
    }

    static void requireLoopback(String serverAddress) {
        if (!isLoopback(serverAddress)) {
            throw new IllegalStateException("drover.receptor.dev-mode=true turns authentication off and is only "
                    + "allowed with server.address bound to a loopback address (e.g. 127.0.0.1), not '"
                    + (serverAddress == null ? "all interfaces" : serverAddress) + "'");
        }
    }

    static boolean isLoopback(String serverAddress) {
        if (serverAddress == null || serverAddress.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(serverAddress.trim()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
