package io.drover.model.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketOption;
import javax.net.SocketFactory;
import jdk.net.ExtendedSocketOptions;

/**
 * The sockets of Drover's PostgreSQL connections (the driver's {@code socketFactory}, set by {@link DroverDefaults}):
 * they probe a silent server after 10 s idle, every 5 s, 3 times, as PostgreSQL probes its clients. A statement
 * waits for its answer with no time limit, and a server that vanished without a word (its container's network torn
 * down with the connection open) would otherwise leave the waiting thread there for good: the compose truth checker
 * found a rep's group commit waiting so, its cell starting nothing, after PostgreSQL restarted. A live server's kernel
 * answers the probes, so a long statement is never cut short. The driver turns the probes on ({@code tcpKeepAlive}).
 */
public final class ProbingSocketFactory extends SocketFactory {

    static final int IDLE_SECONDS = 10;
    static final int INTERVAL_SECONDS = 5;
    static final int COUNT = 3;

    @Override
    public Socket createSocket() throws IOException {
        Socket socket = new Socket();
        set(socket, ExtendedSocketOptions.TCP_KEEPIDLE, IDLE_SECONDS);
        set(socket, ExtendedSocketOptions.TCP_KEEPINTERVAL, INTERVAL_SECONDS);
        set(socket, ExtendedSocketOptions.TCP_KEEPCOUNT, COUNT);
        socket.setKeepAlive(true);
        return socket;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected(new InetSocketAddress(host, port), new InetSocketAddress(localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return connected(new InetSocketAddress(host, port), null);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return connected(new InetSocketAddress(address, port), new InetSocketAddress(localAddress, localPort));
    }

    /** A probing socket connected to {@code remote}, bound first to {@code local} when the caller names one. */
    private Socket connected(InetSocketAddress remote, InetSocketAddress local) throws IOException {
        Socket socket = createSocket();
        if (local != null) {
            socket.bind(local);
        }
        socket.connect(remote);
        return socket;
    }

    /** Where the platform has no such option (not Linux, macOS or Windows 10+), the system's own timing stays. */
    private static void set(Socket socket, SocketOption<Integer> option, int value) throws IOException {
        if (socket.supportedOptions().contains(option)) {
            socket.setOption(option, value);
        }
    }
}
