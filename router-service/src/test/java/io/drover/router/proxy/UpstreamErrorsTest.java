package io.drover.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class UpstreamErrorsTest {

    private final UpstreamErrors errors = new UpstreamErrors();

    @Test
    void aConnectionLostDuringTheResponseIsA502NamingTheRouteWhileNothingReachedTheClient() {
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("http://web/"));
        exchange.getAttributes().put(HostRoutingFilter.ROUTE_ATTR, "web.example.com");
        exchange.getResponse().getHeaders().add("X-From-The-Instance", "1");

        errors.handle(exchange, new IOException("Connection reset by peer")).block();

        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(exchange.getResponse().getHeaders().containsHeader("X-From-The-Instance")).isFalse();
        assertThat(exchange.getResponse().getBodyAsString().block())
                .contains("route web.example.com").contains("during its response");
    }

    @Test
    void anythingElseGoesOnToTheDefaultHandler() {
        MockServerWebExchange routed = MockServerWebExchange.from(MockServerHttpRequest.get("http://web/"));
        routed.getAttributes().put(HostRoutingFilter.ROUTE_ATTR, "web.example.com");
        assertThatThrownBy(() -> errors.handle(routed, new IllegalStateException("odd")).block())
                .isInstanceOf(IllegalStateException.class);
        MockServerWebExchange unrouted = MockServerWebExchange.from(MockServerHttpRequest.get("http://web/"));
        assertThatThrownBy(() -> errors.handle(unrouted, new IOException("reset")).block())
                .hasMessageContaining("reset");
    }
}
