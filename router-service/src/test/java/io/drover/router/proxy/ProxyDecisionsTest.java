package io.drover.router.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.router.RouterProperties;
import io.drover.router.table.Backend;
import io.drover.router.table.HostRoute;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

/** The router's small decisions: which hostname, which instance, whether to try another. */
class ProxyDecisionsTest {

    static final Backend A = new Backend("web", 0, "a", "10.0.0.1", 61000, false);
    static final Backend B = new Backend("web", 1, "b", "10.0.0.2", 61001, false);
    static final Backend C = new Backend("web", 2, "c", "10.0.0.3", 61002, true);
    static final Duration EJECT = Duration.ofSeconds(5);

    long now = 1_000;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({ "web.example.com, web.example.com", "Web.Example.COM:8081, web.example.com",
        "web.example.com., web.example.com", "[::1]:8081, [::1]", "127.0.0.1:80, 127.0.0.1" })
    void theHostnameIsTheHostHeaderWithoutItsPortInLowerCase(String header, String hostname) {
        assertThat(Hostnames.of(header)).isEqualTo(hostname);
    }

    @Test
    void roundRobinTakesEachInstanceInTurnAndAnotherOneOnARetry() {
        Balancer balancer = new Balancer(RouterProperties.Balancing.ROUND_ROBIN, EJECT, () -> now);
        HostRoute route = new HostRoute("web", List.of(A, B, C));
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            picked.add(balancer.pick(route, null).instanceGuid());
        }
        assertThat(picked).containsExactly("a", "b", "c", "a", "b", "c");
        for (int i = 0; i < 6; i++) {
            assertThat(balancer.pick(route, B)).isNotEqualTo(B);
        }
        assertThat(balancer.pick(new HostRoute("web", List.of(A)), A)).as("no other instance").isNull();
        assertThat(balancer.pick(new HostRoute("web", List.of()), null)).isNull();
    }

    @Test
    void leastInFlightTakesTheInstanceWithFewestRequestsInFlight() {
        Balancer balancer = new Balancer(RouterProperties.Balancing.LEAST_IN_FLIGHT, EJECT, () -> now);
        HostRoute route = new HostRoute("web", List.of(A, B, C));
        balancer.started(A);
        balancer.started(A);
        balancer.started(C);
        assertThat(balancer.pick(route, null)).isEqualTo(B);
        balancer.started(B);
        balancer.started(B);
        assertThat(balancer.pick(route, null)).isEqualTo(C);
        balancer.finished(A);
        balancer.finished(A);
        assertThat(balancer.pick(route, null)).isEqualTo(A);
        assertThat(balancer.inFlight(A)).isZero();
    }

    @Test
    void anInstanceThatRefusedAConnectionIsLeftOutForAWhileUnlessItIsTheLast() {
        Balancer balancer = new Balancer(RouterProperties.Balancing.ROUND_ROBIN, EJECT, () -> now);
        HostRoute route = new HostRoute("web", List.of(A, B, C));
        balancer.refused(A);
        balancer.refused(B);
        for (int i = 0; i < 4; i++) {
            assertThat(balancer.pick(route, null)).isEqualTo(C);
        }
        assertThat(balancer.pick(route, C)).as("the only other ones are left out: one of them all the same")
                .isIn(A, B);
        now += EJECT.toNanos();
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            picked.add(balancer.pick(route, null).instanceGuid());
        }
        assertThat(picked).containsExactlyInAnyOrder("a", "b", "c");
    }

    static Stream<Arguments> retries() {
        return Stream.of(
                Arguments.of("connect refused, POST with a body", new ConnectException("refused"), HttpMethod.POST, 5L,
                        Failure.CONNECT, true),
                Arguments.of("reset before the response, GET", new IOException("Connection reset by peer"),
                        HttpMethod.GET, -1L, Failure.RESET, true),
                Arguments.of("reset before the response, POST", new IOException("Connection reset by peer"),
                        HttpMethod.POST, -1L, Failure.RESET, false),
                Arguments.of("reset before the response, PUT with a body", new IOException("Connection reset by peer"),
                        HttpMethod.PUT, 12L, Failure.RESET, false),
                Arguments.of("anything else, GET", new IllegalStateException("odd"), HttpMethod.GET, -1L,
                        Failure.OTHER, false),
                Arguments.of("a connect failure inside another", new RuntimeException(new ConnectException("x")),
                        HttpMethod.DELETE, -1L, Failure.CONNECT, true),
                Arguments.of("a connect failure inside an I/O error", new IOException(new ConnectException("x")),
                        HttpMethod.POST, 5L, Failure.CONNECT, true),
                Arguments.of("a pooled connection to an instance that exited, GET",
                        new reactor.netty.channel.AbortedException("Connection has been closed BEFORE send operation"),
                        HttpMethod.GET, -1L, Failure.RESET, true),
                Arguments.of("a broken pipe before the response, HEAD", new IOException("Broken pipe"),
                        HttpMethod.HEAD, -1L, Failure.RESET, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("retries")
    void onlyARequestThatNeverReachedItsInstanceOrCanBeSentAgainGoesToAnother(String name, Throwable error,
            HttpMethod method, long contentLength, Failure kind, boolean retried) {
        MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.method(method, "http://web/");
        if (contentLength >= 0) {
            request.header("Content-Length", String.valueOf(contentLength));
        }
        assertThat(Failure.of(error)).isEqualTo(kind);
        assertThat(kind.retryable(request.build())).isEqualTo(retried);
    }
}
