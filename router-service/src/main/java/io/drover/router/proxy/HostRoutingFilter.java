package io.drover.router.proxy;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR;
import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.PRESERVE_HOST_HEADER_ATTRIBUTE;

import io.drover.router.feed.TableKeeper;
import io.drover.router.table.Backend;
import io.drover.router.table.HostRoute;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sends a request to an instance of the route its {@code Host} names (the port ignored): 404 with a short plain body
 * when no route has the hostname, 502 naming the route when it has no instance. The gateway's routing filter then
 * proxies it (HTTP, WebSocket, streaming), with the client's {@code Host}. A connect failure is tried once more on
 * another instance for any method (the request never reached the first), a reset before any byte of the response only
 * for an idempotent request with no body; a request that fails both ways is a 502 naming the route.
 *
 * <p>Ordered after the gateway's own URL filter and before its routing filters, like its load balancer filter.
 */
final class HostRoutingFilter implements GlobalFilter, Ordered {

    static final int ORDER = 10_150;
    /** The instance a request went to (the metrics filter ends its in-flight count). */
    static final String BACKEND_ATTR = "drover.router.backend";
    /** The hostname of the request's route, or absent for an unknown host. */
    static final String ROUTE_ATTR = "drover.router.route";
    /** The most instances one request is sent to: a connect failure costs up to the connect timeout each. */
    static final int MAX_ATTEMPTS = 4;

    private final TableKeeper keeper;
    private final Balancer balancer;
    private final RequestMetrics metrics;

    HostRoutingFilter(TableKeeper keeper, Balancer balancer, RequestMetrics metrics) {
        this.keeper = keeper;
        this.balancer = balancer;
        this.metrics = metrics;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        String hostname = Hostnames.of(exchange.getRequest());
        HostRoute route = keeper.table().route(hostname);
        if (route == null) {
            return answer(exchange, HttpStatus.NOT_FOUND, "404 Not Found: no route for host " + printable(hostname)
                    + "\n");
        }
        exchange.getAttributes().put(ROUTE_ATTR, route.hostname());
        Backend backend = balancer.pick(route, null);
        if (backend == null) {
            return noInstance(exchange, route.hostname());
        }
        return send(exchange, chain, route.hostname(), backend, 1);
    }

    /**
     * Sends the request to {@code backend}, the {@code attempt}-th instance tried. A request that never reached its
     * instance (a connect failure: a dead machine, a process gone) goes on to another, each refused instance left out
     * ({@link Balancer#refused}), up to {@link #MAX_ATTEMPTS} in all, as nginx's {@code proxy_next_upstream} does; one
     * reset before the response goes to one other instance, if the request may be sent again.
     */
    private Mono<Void> send(ServerWebExchange exchange, GatewayFilterChain chain, String hostname, Backend backend,
            int attempt) {
        exchange.getAttributes().put(GATEWAY_REQUEST_URL_ATTR, target(backend, exchange.getRequest()));
        exchange.getAttributes().put(PRESERVE_HOST_HEADER_ATTRIBUTE, true);
        exchange.getAttributes().put(BACKEND_ATTR, backend);
        balancer.started(backend);
        return chain.filter(exchange).onErrorResume(error -> {
            Failure failure = Failure.of(error);
            metrics.upstreamError(hostname, failure);
            if (failure == Failure.CONNECT) {
                balancer.refused(backend);
            }
            if (exchange.getResponse().isCommitted()) {
                return Mono.error(error);
            }
            boolean again = failure == Failure.CONNECT ? attempt < MAX_ATTEMPTS : attempt == 1;
            if (again && failure.retryable(exchange.getRequest())) {
                HostRoute current = keeper.table().route(hostname);
                Backend other = current == null ? null : balancer.pick(current, backend);
                if (other != null) {
                    balancer.finished(backend);
                    ServerWebExchangeUtils.reset(exchange);
                    return send(exchange, chain, hostname, other, attempt + 1);
                }
            }
            return answer(exchange, HttpStatus.BAD_GATEWAY, "502 Bad Gateway: route " + hostname
                    + ": the instance did not answer (" + failure.label() + ")\n");
        });
    }

    private static Mono<Void> noInstance(ServerWebExchange exchange, String hostname) {
        return answer(exchange, HttpStatus.BAD_GATEWAY, "502 Bad Gateway: route " + hostname
                + " has no running instance\n");
    }

    private static URI target(Backend backend, ServerHttpRequest request) {
        URI uri = request.getURI();
        String path = uri.getRawPath();
        String query = uri.getRawQuery();
        return URI.create(backend.base() + (path == null || path.isEmpty() ? "/" : path)
                + (query == null ? "" : "?" + query));
    }

    static Mono<Void> answer(ServerWebExchange exchange, HttpStatus status, String body) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.getHeaders().setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    /** A hostname as a client sent it, cut short and stripped of what does not print. */
    private static String printable(String hostname) {
        String cut = hostname.length() > 253 ? hostname.substring(0, 253) : hostname;
        return cut.replaceAll("[^\\x21-\\x7e]", "?");
    }

    @Override
    public int getOrder() {
        return ORDER;
    }
}
