package io.drover.receptor.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.receptor.task.CallbackTargets.Endpoint;
import io.drover.receptor.task.CallbackTargets.Target;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Where a callback may go, case by case: the allow-list, the URL's host and port, what it resolves to. */
class CallbackTargetsTest {

    /** PostgreSQL on 10.0.0.9:5432, Kafka on kafka.internal:9092, this receptor on 127.0.0.1:8080. */
    static final List<Endpoint> CLUSTER = List.of(new Endpoint(null, ip("10.0.0.9"), 5432),
            new Endpoint("kafka.internal", null, 9092), new Endpoint(null, ip("127.0.0.1"), 8080));

    static Stream<Arguments> cases() {
        return Stream.of(
                row("*", "hooks.example.com", 443, "203.0.113.7", null),
                row("*", "203.0.113.7", 80, "203.0.113.7", null),
                row("*", "10.1.2.3", 8080, "10.1.2.3", null),
                row("*", "unresolvable.example", 443, "", null),
                row("*", "127.0.0.1", 9000, "127.0.0.1", "a loopback address"),
                row("*", "localhost", 80, "", "a loopback host"),
                row("*", "app.localhost", 80, "", "a loopback host"),
                row("*", "::1", 80, "::1", "a loopback address"),
                row("*", "169.254.169.254", 80, "169.254.169.254", "a link-local address"),
                row("*", "fe80::1", 80, "fe80::1", "a link-local address"),
                row("*", "0.0.0.0", 80, "0.0.0.0", "a wildcard address"),
                row("*", "224.0.0.1", 80, "224.0.0.1", "a multicast address"),
                row("*", "sneaky.example.com", 80, "127.0.0.1", "a loopback address"),
                row("*", "db.internal", 5432, "10.0.0.9", "a service of the cluster"),
                row("*", "kafka.internal", 9092, "", "a service of the cluster"),
                row("*", "Kafka.Internal", 9092, "", "a service of the cluster"),
                row("*", "kafka.internal", 9093, "", null),
                row("*", "10.0.0.9", 5433, "10.0.0.9", null),
                row("*,127.0.0.1:9000", "127.0.0.1", 9000, "127.0.0.1", null),
                row("*,127.0.0.1:9000", "127.0.0.1", 9001, "127.0.0.1", "a loopback address"),
                row("*,127.0.0.0/8", "127.0.0.1", 8080, "127.0.0.1", "a service of the cluster"),
                row("*,[::1]:9000", "::1", 9000, "::1", null),
                row("*,localhost", "localhost", 80, "127.0.0.1", null),
                row("hooks.example.com,10.1.0.0/16", "hooks.example.com", 443, "203.0.113.7", null),
                row("hooks.example.com,10.1.0.0/16", "10.1.200.3", 80, "10.1.200.3", null),
                row("hooks.example.com,10.1.0.0/16", "10.2.0.3", 80, "10.2.0.3", "host not in"),
                row("*.example.com", "a.b.example.com", 443, "203.0.113.7", null),
                row("*.example.com", "example.org", 443, "203.0.113.8", "host not in"));
    }

    @ParameterizedTest(name = "allow {0}: {1}:{2} ({3}) -> {4}")
    @MethodSource("cases")
    void decides(String allowList, String host, int port, String resolved, String refusal) {
        CallbackTargets targets = new CallbackTargets(Arrays.asList(allowList.split(",")));
        List<InetAddress> addresses = resolved.isEmpty() ? List.of() : List.of(ip(resolved));

        String why = targets.refusal(new Target(host, port, addresses), CallbackTargets.Services.of(CLUSTER)).orElse(null);

        if (refusal == null) {
            assertThat(why).isNull();
        } else {
            assertThat(why).startsWith(refusal);
        }
    }

    static Arguments row(String allowList, String host, int port, String resolved, String refusal) {
        return Arguments.of(allowList, host, port, resolved, refusal);
    }

    static InetAddress ip(String literal) {
        return CallbackTargets.literal(literal);
    }
}
