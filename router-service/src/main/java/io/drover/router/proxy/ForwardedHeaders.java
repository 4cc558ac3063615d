package io.drover.router.proxy;

import java.net.InetSocketAddress;
import java.util.regex.Pattern;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Sets {@code X-Forwarded-For}, {@code -Proto} and {@code -Host} on every proxied request. A peer that is a trusted
 * proxy (another router, a load balancer in front: {@code drover.router.trusted-proxies}) has its values kept and its
 * own address added to the chain; anyone else's are replaced, so a client cannot pass itself off as another.
 */
final class ForwardedHeaders implements HttpHeadersFilter, Ordered {

    static final String FOR = "X-Forwarded-For";
    static final String PROTO = "X-Forwarded-Proto";
    static final String HOST = "X-Forwarded-Host";

    private final Pattern trusted;

    ForwardedHeaders(String trustedProxies) {
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
        HttpHeaders updated = new HttpHeaders();
        input.headerSet().forEach(e -> {
            if (!e.getKey().equalsIgnoreCase(FOR) && !e.getKey().equalsIgnoreCase(PROTO)
                    && !e.getKey().equalsIgnoreCase(HOST)) {
                updated.addAll(e.getKey(), e.getValue());
            }
        });
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

    private static String joined(HttpHeaders headers, String name) {
        var values = headers.get(name);
        return values == null || values.isEmpty() ? null : String.join(", ", values);
    }

    @Override
    public boolean supports(Type type) {
        return type == Type.REQUEST;
    }

    /** Last: the gateway's own filters remove the forwarded headers it does not trust. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
