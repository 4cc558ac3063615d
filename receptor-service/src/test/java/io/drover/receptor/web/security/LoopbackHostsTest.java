package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoopbackHostsTest {

    @ParameterizedTest(name = "listening on {0}, Host {1}: {2}")
    @CsvSource(nullValues = "null", value = {
            "127.0.0.1, localhost, answered",
            "127.0.0.1, LocalHost, answered",
            "127.0.0.1, dashboard.localhost, answered",
            "127.0.0.1, 127.0.0.1, answered",
            "127.0.0.1, 127.8.9.10, answered",
            "127.0.0.1, [::1], answered",
            "127.0.0.1, ::1, answered",
            "127.0.0.1, drover.internal, answered",
            "127.0.0.1, DROVER.internal, answered",
            "localhost, localhost, answered",
            "127.0.0.2, 127.0.0.2, answered",
            "127.0.0.1, evil.example, refused",
            "127.0.0.1, localhost.evil.example, refused",
            "127.0.0.1, 127.0.0.1.nip.io, refused",
            "127.0.0.1, 0.0.0.0, refused",
            "127.0.0.1, 10.0.0.8, refused",
            "127.0.0.1, [::ffff:10.0.0.8], refused",
            "127.0.0.1, '', refused",
            "127.0.0.1, null, refused",
            "0.0.0.0, evil.example, answered",
            "10.0.0.8, evil.example, answered",
            "null, evil.example, answered" })
    void aReceptorOnLoopbackAnswersOnlyItsOwnNames(String serverAddress, String host, String outcome) {
        LoopbackHosts hosts = new LoopbackHosts(serverAddress, List.of("drover.internal"));
        assertThat(hosts.refusal(host) == null ? "answered" : "refused").isEqualTo(outcome);
    }
}
