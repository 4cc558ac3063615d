package io.drover.rep.evacuation;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Which of this machine's addresses reach a TCP port: how a test proves a socket listens on loopback only. */
public final class Reachability {

    private static final int TIMEOUT_MS = 2000;

    private Reachability() {
    }

    /**
     * The machine's non-loopback addresses (every up interface, IPv4 and IPv6) on which a probe listener of our own can
     * be reached, so that a refusal on one of them says something about the socket under test, not about a firewall.
     */
    public static List<InetAddress> selfReachableNonLoopbackAddresses() throws IOException {
        List<InetAddress> reachable = new ArrayList<>();
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (!address.isLoopbackAddress() && probeReaches(address)) {
                    reachable.add(address);
                }
            }
        }
        return reachable;
    }

    /** True when a TCP connection to the port on that address is accepted. */
    public static boolean accepts(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean probeReaches(InetAddress address) {
        try (ServerSocket probe = new ServerSocket(0, 1, address)) {
            return accepts(address, probe.getLocalPort());
        } catch (IOException e) {
            return false;
        }
    }
}
