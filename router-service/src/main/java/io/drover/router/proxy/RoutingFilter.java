package io.drover.router.proxy;

import io.netty.channel.EventLoop;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.http.server.reactive.AbstractServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClient;

/**
 * The gateway's routing filter (it proxies the request and passes the response on, as ever) with two things of the
 * router's own:
 *
 * <ul>
 * <li><b>Each event loop its own connections.</b> The gateway's client keeps one pool per instance address, and a
 * pooled connection lives on the event loop that opened it, so a request read on one loop was mostly sent on a
 * connection of another: two hand-overs between threads per request (the request to the connection's loop, the
 * response back to the client's), each a task queued and a thread woken. Here a request goes out on a connection of
 * its own loop (a client per loop, so a pool per loop and address): the whole exchange stays on one thread.</li>
 * <li><b>One header filter.</b> The gateway's own header filters each copy the headers once (forwarded headers
 * removed twice over, hop-by-hop headers, gRPC, ...); {@link ProxyHeaders} does what the router needs of them in one
 * copy.</li>
 * </ul>
 *
 * <p>The connect timeout is the gateway client's own ({@code httpclient.connect-timeout}): the one route has no
 * metadata of its own, so the gateway's per-request copy of the client with the same timeout is not made.
 */
final class RoutingFilter extends NettyRoutingFilter {

    private final HttpClient client;
    private final List<HttpHeadersFilter> headers;
    private final ConcurrentHashMap<EventLoop, HttpClient> perLoop = new ConcurrentHashMap<>();

    RoutingFilter(HttpClient client, ObjectProvider<List<HttpHeadersFilter>> gatewayHeaders,
            HttpClientProperties properties, ProxyHeaders headers) {
        super(client, gatewayHeaders, properties);
        this.client = client;
        this.headers = List.of(headers, ProxyHeaders.RESPONSE);
    }

    @Override
    public List<HttpHeadersFilter> getHeadersFilters() {
        return headers;
    }

    @Override
    protected HttpClient getHttpClient(Route route, ServerWebExchange exchange) {
        EventLoop loop = loopOf(exchange);
        return loop == null ? client : perLoop.computeIfAbsent(loop, client::runOn);
    }

    /** The event loop of the client's connection to the router, or null when the request is not Reactor Netty's. */
    private static EventLoop loopOf(ServerWebExchange exchange) {
        ServerHttpRequest request = exchange.getRequest();
        while (request instanceof ServerHttpRequestDecorator decorator) {
            request = decorator.getDelegate();
        }
        return request instanceof AbstractServerHttpRequest server
                && server.getNativeRequest() instanceof Connection connection ? connection.channel().eventLoop() : null;
    }
}
