package io.drover.router.proxy;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * The headers an instance gets, in one copy of the client's: the hop-by-hop headers left out (those the gateway's own
 * filter leaves out: {@code Connection} and every header it names, {@code Keep-Alive}, {@code TE}, {@code Trailer},
 * {@code Transfer-Encoding}, {@code Upgrade}, {@code Proxy-Authorization}, {@code Proxy-Authenticate}), a
 * {@code Content-Length} beside {@code Transfer-Encoding: chunked} left out, {@code Forwarded} and every
 * {@code X-Forwarded-*} left out, and {@code X-Forwarded-For}, {@code -Proto} and {@code -Host} set. A peer that is a
 * trusted proxy (another router, a load balancer in front: {@code drover.router.trusted-proxies}) has its
 * {@code X-Forwarded-For}, {@code -Proto} and {@code -Host} kept and its own address added to the chain; anyone
 * else's are replaced, so a client cannot pass itself off as another. {@link #RESPONSE} does the same for the headers
 * the client gets back: the hop-by-hop ones left out.
 */
final class ProxyHeaders implements HttpHeadersFilter, Ordered {

    static final String FOR = "X-Forwarded-For";
    static final String PROTO = "X-Forwarded-Proto";
    static final String HOST = "X-Forwarded-Host";

    /** The response's side: its hop-by-hop headers left out. */
    static final HttpHeadersFilter RESPONSE = new HttpHeadersFilter() {

        @Override
        public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
            List<String> named = connectionOptions(input);
            HttpHeaders updated = new HttpHeaders();
            for (Map.Entry<String, List<String>> header : input.headerSet()) {
                if (!hopByHop(header.getKey(), named)) {
                    updated.put(header.getKey(), header.getValue());
                }
            }
            return updated;
        }

        @Override
        public boolean supports(Type type) {
            return type == Type.RESPONSE;
        }
    };

    /** What the gateway's {@code RemoveHopByHopHeadersFilter} leaves out, in lower case. */
    private static final String[] HOP_BY_HOP = { "connection", "keep-alive", "transfer-encoding", "te", "trailer",
        "proxy-authorization", "proxy-authenticate", "x-application-context", "upgrade" };
    private static final String FORWARDED = "Forwarded";
    private static final String X_FORWARDED = "X-Forwarded-";

    private final Pattern trusted;

    ProxyHeaders(String trustedProxies) {
        this.trusted = Pattern.compile(trustedProxies);
    }

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        ServerHttpRequest request = exchange.getRequest();
        HttpHeaders original = request.getHeaders();
        InetSocketAddress remote = request.getRemoteAddress();
        String peer = remote == null ? null
                : remote.getAddress() == null ? remote.getHostString() : remote.getAddress().getHostAddress();
        boolean fromProxy = peer != null && trusted.matcher(peer).matches();
        List<String> named = connectionOptions(input);
        String transferEncoding = input.getFirst(HttpHeaders.TRANSFER_ENCODING);
        boolean chunked = transferEncoding != null && transferEncoding.trim().equalsIgnoreCase("chunked");
        HttpHeaders updated = new HttpHeaders();
        for (Map.Entry<String, List<String>> header : input.headerSet()) {
            String name = header.getKey();
            if (!hopByHop(name, named) && !forwarded(name)
                    && !(chunked && name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH))) {
                updated.put(name, header.getValue());
            }
        }
        String chain = fromProxy ? joined(original, FOR) : null;
        if (peer != null) {
            updated.set(FOR, chain == null ? peer : chain + ", " + peer);
        }
        String proto = fromProxy ? original.getFirst(PROTO) : null;
        updated.set(PROTO, proto != null ? proto : request.getURI().getScheme());
        String host = fromProxy ? original.getFirst(HOST) : null;
        String hostHeader = original.getFirst(HttpHeaders.HOST);
        if (host != null || hostHeader != null) {
            updated.set(HOST, host != null ? host : hostHeader);
        }
        return updated;
    }

    private static boolean forwarded(String name) {
        return name.equalsIgnoreCase(FORWARDED) || name.regionMatches(true, 0, X_FORWARDED, 0, X_FORWARDED.length());
    }

    private static boolean hopByHop(String name, List<String> named) {
        for (String hop : HOP_BY_HOP) {
            if (hop.equalsIgnoreCase(name)) {
                return true;
            }
        }
        for (int i = 0; i < named.size(); i++) {
            if (named.get(i).equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** The headers {@code Connection} names (its options), in lower case; none mostly. */
    private static List<String> connectionOptions(HttpHeaders headers) {
        List<String> values = headers.get(HttpHeaders.CONNECTION);
        if (values == null || values.isEmpty()) {
            return List.of();
        }
        List<String> options = new ArrayList<>();
        for (String value : values) {
            for (String option : value.split(",")) {
                if (!option.isBlank()) {
                    options.add(option.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return options;
    }

    private static String joined(HttpHeaders headers, String name) {
        var values = headers.get(name);
        return values == null || values.isEmpty() ? null : String.join(", ", values);
    }

    @Override
    public boolean supports(Type type) {
        return type == Type.REQUEST;
    }

    /** Last: where the gateway's own filters run too (its WebSocket filter), after them. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
