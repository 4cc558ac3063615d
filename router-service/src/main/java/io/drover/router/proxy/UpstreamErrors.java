package io.drover.router.proxy;

import org.springframework.boot.webflux.error.ErrorWebExceptionHandler;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * An instance lost after its response began (it crashed while answering, its connection closed mid-response): the
 * routing filter could no longer send the request elsewhere, since the gateway was already passing the response on.
 * While nothing of it has reached the client, the client gets a 502 that names the route, as for every other upstream
 * failure, rather than the framework's 500. Anything else goes on to the default handler.
 */
final class UpstreamErrors implements ErrorWebExceptionHandler, Ordered {

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        String route = exchange.getAttribute(HostRoutingFilter.ROUTE_ATTR);
        if (route == null || exchange.getResponse().isCommitted() || Failure.of(error) != Failure.RESET) {
            return Mono.error(error);
        }
        exchange.getResponse().getHeaders().clear();
        return HostRoutingFilter.answer(exchange, HttpStatus.BAD_GATEWAY, "502 Bad Gateway: route " + route
                + ": the instance closed the connection during its response\n");
    }

    @Override
    public int getOrder() {
        return -2; // before Boot's default handler (-1)
    }
}
