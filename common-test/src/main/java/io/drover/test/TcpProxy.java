package io.drover.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwards TCP connections from a local port to a target, and can cut the network: {@link #cut()} closes the port and
 * every open connection (clients see connection refused), {@link #restore()} listens on the same port again.
 */
public final class TcpProxy implements AutoCloseable {

    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int targetPort;
    private volatile ServerSocket server;
    private volatile int port;

    private TcpProxy(int targetPort) {
        this.targetPort = targetPort;
    }

    /** A proxy on an OS-assigned loopback port forwarding to {@code targetPort} on loopback. */
    public static TcpProxy forward(int targetPort) {
        TcpProxy proxy = new TcpProxy(targetPort);
        proxy.listen(0);
        return proxy;
    }

    /** A proxy on an OS-assigned loopback port whose target is set later with {@link #forwardTo(int)}. */
    public static TcpProxy unbound() {
        return forward(0);
    }

    /** Where new connections go from now on. */
    public void forwardTo(int targetPort) {
        this.targetPort = targetPort;
    }

    public int port() {
        return port;
    }

    /** Closes the port and every connection through it. */
    public synchronized void cut() {
        closeQuietly(server);
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    /** Listens on the same port again. */
    public synchronized void restore() {
        if (server == null || server.isClosed()) {
            listen(port);
        }
    }

    @Override
    public void close() {
        cut();
    }

    private void listen(int onPort) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), onPort));
            server = socket;
            port = socket.getLocalPort();
            accept(socket);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on port " + onPort, e);
        }
    }

    private void accept(ServerSocket socket) {
        Thread acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    open.add(client);
                    open.add(upstream);
                    pump(client, upstream);
                    pump(upstream, client);
                } catch (IOException e) {
                    // the port was cut, or the target refused: the client sees its connection drop
                }
            }
        }, "tcp-proxy-" + socket.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, "tcp-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            if (closeable != null) {
                closeable.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
