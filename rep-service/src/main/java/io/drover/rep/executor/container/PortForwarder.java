package io.drover.rep.executor.container;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards each instance's host ports to its address and container ports, in the rep (there is no iptables on these
 * cells to DNAT with): one thread and one selector for every port of the rep, a 64 KiB buffer per direction of a
 * connection, half-closes passed on. A connection the instance refuses is closed at once. While no rep runs, a host
 * port does not answer; the rep that adopts the instance forwards it again.
 */
final class PortForwarder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PortForwarder.class);

    private static final int BUFFER = 64 * 1024;

    private final Selector selector;

    private final Map<Integer, ServerSocketChannel> listeners = new ConcurrentHashMap<>();

    private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();

    private final Thread thread;

    PortForwarder() throws IOException {
        this.selector = Selector.open();
        this.thread = new Thread(this::loop, "drover-port-forwarder");
        thread.setDaemon(true);
        thread.start();
    }

    /** Listens on the host port (every address) and forwards what arrives to {@code target}. */
    void open(int hostPort, InetSocketAddress target) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(hostPort), 128);
            server.configureBlocking(false);
        } catch (IOException e) {
            server.close();
            throw new IOException("cannot listen on host port " + hostPort + ": " + e.getMessage(), e);
        }
        ServerSocketChannel previous = listeners.put(hostPort, server);
        closeQuietly(previous);
        submit(() -> register(server, SelectionKey.OP_ACCEPT, target));
    }

    /** Stops listening on the host port; connections already forwarded end when either side closes. */
    void close(int hostPort) {
        closeQuietly(listeners.remove(hostPort));
    }

    @Override
    public void close() {
        listeners.values().forEach(PortForwarder::closeQuietly);
        listeners.clear();
        try {
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private void submit(Runnable task) {
        pending.add(task);
        selector.wakeup();
    }

    private void loop() {
        try {
            while (selector.isOpen()) {
                selector.select(1000);
                for (Runnable task; (task = pending.poll()) != null;) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    handle(key);
                }
                selector.selectedKeys().clear();
            }
        } catch (ClosedSelectorException e) {
            // closed
        } catch (IOException | RuntimeException e) {
            log.warn("port-forwarder-stopped", e);
        }
    }

    private void handle(SelectionKey key) {
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isAcceptable()) {
                accept(key);
            } else if (key.isConnectable()) {
                ((Pipe) key.attachment()).connected(key);
            } else {
                ((Pipe) key.attachment()).pump(key);
            }
        } catch (IOException | RuntimeException e) {
            Object attachment = key.attachment();
            if (attachment instanceof Pipe pipe) {
                pipe.close();
            } else {
                key.cancel();
            }
        }
    }

    private void accept(SelectionKey key) throws IOException {
        SocketChannel client = ((ServerSocketChannel) key.channel()).accept();
        if (client == null) {
            return;
        }
        client.configureBlocking(false);
        SocketChannel upstream = SocketChannel.open();
        upstream.configureBlocking(false);
        Pipe pipe = new Pipe(client, upstream);
        try {
            if (upstream.connect((InetSocketAddress) key.attachment())) {
                pipe.start();
            } else {
                pipe.upstreamKey = upstream.register(selector, SelectionKey.OP_CONNECT, pipe);
            }
        } catch (IOException e) {
            pipe.close();
        }
    }

    private void register(ServerSocketChannel server, int ops, Object attachment) {
        try {
            server.register(selector, ops, attachment);
        } catch (IOException | RuntimeException e) {
            log.warn("port-forwarder-register-failed port={}", server.socket().getLocalPort(), e);
        }
    }

    private static void closeQuietly(java.nio.channels.Channel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** One forwarded connection: a buffer per direction; a channel is read only while its buffer has room. */
    private final class Pipe {

        private final SocketChannel client;
        private final SocketChannel upstream;
        private final ByteBuffer toUpstream = ByteBuffer.allocate(BUFFER);
        private final ByteBuffer toClient = ByteBuffer.allocate(BUFFER);
        private SelectionKey clientKey;
        private SelectionKey upstreamKey;
        private boolean clientEof;
        private boolean upstreamEof;

        Pipe(SocketChannel client, SocketChannel upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void connected(SelectionKey key) throws IOException {
            upstream.finishConnect();
            start();
        }

        void start() throws IOException {
            clientKey = client.register(selector, SelectionKey.OP_READ, this);
            upstreamKey = upstream.register(selector, SelectionKey.OP_READ, this);
        }

        void pump(SelectionKey key) throws IOException {
            if (key.isReadable()) {
                boolean fromClient = key == clientKey;
                SocketChannel from = fromClient ? client : upstream;
                ByteBuffer buffer = fromClient ? toUpstream : toClient;
                if (from.read(buffer) < 0) {
                    if (fromClient) {
                        clientEof = true;
                    } else {
                        upstreamEof = true;
                    }
                }
            }
            flush(toUpstream, upstream, clientEof);
            flush(toClient, client, upstreamEof);
            if (clientEof && upstreamEof && toUpstream.position() == 0 && toClient.position() == 0) {
                close();
                return;
            }
            clientKey.interestOps(ops(toUpstream, clientEof, toClient));
            upstreamKey.interestOps(ops(toClient, upstreamEof, toUpstream));
        }

        /** Writes what the buffer holds; once the source has ended and all is written, half-closes the target. */
        private void flush(ByteBuffer buffer, SocketChannel to, boolean sourceEnded) throws IOException {
            if (buffer.position() > 0) {
                buffer.flip();
                to.write(buffer);
                buffer.compact();
            }
            if (sourceEnded && buffer.position() == 0 && to.isOpen()) {
                to.shutdownOutput();
            }
        }

        /** Read while the outgoing buffer has room and the channel has not ended; write while there is a backlog. */
        private int ops(ByteBuffer outgoing, boolean ended, ByteBuffer incoming) {
            int ops = 0;
            if (!ended && outgoing.hasRemaining()) {
                ops |= SelectionKey.OP_READ;
            }
            if (incoming.position() > 0) {
                ops |= SelectionKey.OP_WRITE;
            }
            return ops;
        }

        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }
}
