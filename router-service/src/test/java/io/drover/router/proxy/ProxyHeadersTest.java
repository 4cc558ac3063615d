package io.drover.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter.Type;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/** The headers an instance gets and the client gets back: the gateway's header filters' work, in one copy. */
class ProxyHeadersTest {

    static final String TRUSTED = "127\\.0\\.0\\.1";
    final ProxyHeaders headers = new ProxyHeaders(TRUSTED);

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("a plain request from a client", "10.1.1.1",
                        Map.of("Host", "web.example.com", "Accept", "text/plain", "Cookie", "a=b"),
                        Map.of("Host", "web.example.com", "Accept", "text/plain", "Cookie", "a=b",
                                "X-Forwarded-For", "10.1.1.1", "X-Forwarded-Proto", "http",
                                "X-Forwarded-Host", "web.example.com")),
                Arguments.of("hop-by-hop headers, and those Connection names", "10.1.1.1",
                        Map.of("Host", "web", "Connection", "keep-alive, X-Secret", "Keep-Alive", "timeout=5",
                                "X-Secret", "s", "TE", "trailers", "Trailer", "Expires", "Upgrade", "h2c",
                                "Proxy-Authorization", "Basic x", "Accept", "*/*"),
                        Map.of("Host", "web", "Accept", "*/*", "X-Forwarded-For", "10.1.1.1",
                                "X-Forwarded-Proto", "http", "X-Forwarded-Host", "web")),
                Arguments.of("a chunked body's Content-Length", "10.1.1.1",
                        Map.of("Host", "web", "Transfer-Encoding", "chunked", "Content-Length", "12"),
                        Map.of("Host", "web", "X-Forwarded-For", "10.1.1.1", "X-Forwarded-Proto", "http",
                                "X-Forwarded-Host", "web")),
                Arguments.of("a client's forwarded headers are replaced", "10.1.1.1",
                        Map.of("Host", "web", "X-Forwarded-For", "1.2.3.4", "X-Forwarded-Proto", "https",
                                "X-Forwarded-Host", "bank.example.com", "X-Forwarded-Port", "443",
                                "Forwarded", "for=1.2.3.4"),
                        Map.of("Host", "web", "X-Forwarded-For", "10.1.1.1", "X-Forwarded-Proto", "http",
                                "X-Forwarded-Host", "web")),
                Arguments.of("a trusted proxy's are kept, and it joins the chain", "127.0.0.1",
                        Map.of("Host", "web", "Content-Length", "12", "X-Forwarded-For", "1.2.3.4",
                                "X-Forwarded-Proto", "https", "X-Forwarded-Host", "web.example.com",
                                "X-Forwarded-Port", "443", "Forwarded", "for=1.2.3.4"),
                        Map.of("Host", "web", "Content-Length", "12", "X-Forwarded-For", "1.2.3.4, 127.0.0.1",
                                "X-Forwarded-Proto", "https", "X-Forwarded-Host", "web.example.com")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void anInstanceGetsTheClientsHeadersButHopByHopAndForwardedOnesAndTheRoutersForwardedHeaders(String name,
            String peer, Map<String, String> sent, Map<String, String> forwarded) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.get("http://web/")
                .remoteAddress(new InetSocketAddress(peer, 40000));
        sent.forEach(request::header);
        MockServerWebExchange exchange = MockServerWebExchange.from(request.build());

        HttpHeaders filtered = HttpHeadersFilter.filterRequest(List.of(headers, ProxyHeaders.RESPONSE), exchange);

        assertThat(filtered.toSingleValueMap()).containsExactlyInAnyOrderEntriesOf(forwarded);
    }

    @Test
    void theClientGetsTheInstancesResponseHeadersButHopByHopOnes() {
        HttpHeaders response = new HttpHeaders();
        response.add("Content-Type", "text/plain");
        response.add("Set-Cookie", "a=1");
        response.add("Set-Cookie", "b=2");
        response.add("Connection", "keep-alive, X-Internal");
        response.add("X-Internal", "yes");
        response.add("Keep-Alive", "timeout=5");
        response.add("Transfer-Encoding", "chunked");
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("http://web/"));

        HttpHeaders filtered = HttpHeadersFilter.filter(List.of(headers, ProxyHeaders.RESPONSE), response, exchange,
                Type.RESPONSE);

        assertThat(filtered.headerNames()).containsExactlyInAnyOrder("Content-Type", "Set-Cookie");
        assertThat(filtered.get("Set-Cookie")).containsExactly("a=1", "b=2");
    }
}
