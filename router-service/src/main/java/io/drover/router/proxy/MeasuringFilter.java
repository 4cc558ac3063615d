package io.drover.router.proxy;

import io.drover.router.table.Backend;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

/**
 * First of all filters, so it sees a request to its end (its response body written, its WebSocket closed): records its
 * route, status class and time, and ends its instance's in-flight count.
 */
final class MeasuringFilter implements GlobalFilter, Ordered {

    private final RequestMetrics metrics;
    private final Balancer balancer;

    MeasuringFilter(RequestMetrics metrics, Balancer balancer) {
        this.metrics = metrics;
        this.balancer = balancer;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        long started = System.nanoTime();
        return chain.filter(exchange).doFinally(signal -> {
            Backend backend = exchange.getAttribute(HostRoutingFilter.BACKEND_ATTR);
            if (backend != null) {
                balancer.finished(backend);
            }
            String route = exchange.getAttributeOrDefault(HostRoutingFilter.ROUTE_ATTR, RequestMetrics.NO_ROUTE);
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            int statusClass = signal == SignalType.CANCEL ? RequestMetrics.CANCELLED
                    : status == null ? (signal == SignalType.ON_ERROR ? 5 : 2) : status.value() / 100;
            metrics.request(route, statusClass, System.nanoTime() - started);
        });
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
