package io.drover.router.proxy;

import java.util.Locale;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;

/** The hostname a request is for: its {@code Host} without the port, lower case, no trailing dot. */
final class Hostnames {

    private Hostnames() {
    }

    static String of(ServerHttpRequest request) {
        String host = request.getHeaders().getFirst(HttpHeaders.HOST);
        if (host == null) {
            host = request.getURI().getHost();
        }
        return host == null ? "" : of(host);
    }

    static String of(String hostHeader) {
        String host = hostHeader.trim();
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            host = end < 0 ? host : host.substring(0, end + 1);
        } else {
            int colon = host.indexOf(':');
            host = colon < 0 ? host : host.substring(0, colon);
        }
        if (host.endsWith(".")) {
            host = host.substring(0, host.length() - 1);
        }
        return host.toLowerCase(Locale.ROOT);
    }
}
