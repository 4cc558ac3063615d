package io.drover.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 calls to the router with a {@code Host} of the caller's choosing (the JDK's client will not send one), each
 * on a connection of its own that the server closes: enough for tests, and nothing kept between calls.
 */
final class HostCalls {

    private HostCalls() {
    }

    /** A response: its status, or -1 with what went wrong as the body. */
    record Answer(int status, String body) {

        boolean ok() {
            return status == 200;
        }

        @Override
        public String toString() {
            return status + " " + body.strip();
        }
    }

    static Answer get(String routerUrl, String host, String path) {
        return call(routerUrl, "GET", host, path, null);
    }

    /** A call with {@code body} (none when null). */
    static Answer call(String routerUrl, String method, String host, String path, String body) {
        URI uri = URI.create(routerUrl);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
                    + (body == null ? "" : "Content-Length: " + body.length() + "\r\n") + "\r\n"
                    + (body == null ? "" : body)).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String response = new String(readAll(socket.getInputStream()), StandardCharsets.UTF_8);
            int headersEnd = response.indexOf("\r\n\r\n");
            if (!response.startsWith("HTTP/1.1 ") || headersEnd < 0) {
                return new Answer(-1, "no response: " + response);
            }
            int status = Integer.parseInt(response.substring(9, 12));
            String content = response.substring(headersEnd + 4);
            if (response.substring(0, headersEnd).toLowerCase().contains("transfer-encoding: chunked")) {
                content = unchunk(content);
            }
            return new Answer(status, content);
        } catch (IOException | RuntimeException e) {
            return new Answer(-1, e.toString());
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            all.write(buffer, 0, n);
        }
        return all.toByteArray();
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return body.toString();
    }
}
