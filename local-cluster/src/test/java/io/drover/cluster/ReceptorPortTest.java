package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.context.ConfigurableApplicationContext;

class ReceptorPortTest {

    private final List<String> ports = new ArrayList<>();

    @Test
    void aFreePreferredPortIsAskedFor() throws IOException {
        int free = FreePorts.any();
        ReceptorPort.launch(free, this::starts);
        assertThat(ports).containsExactly(String.valueOf(free));
    }

    @Test
    void aPreferredPortSeenBusyIsNotTriedAtAll() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ReceptorPort.launch(taken.getLocalPort(), this::starts);
        }
        assertThat(ports).containsExactly("0");
    }

    @Test
    void aPortTakenBetweenTheLookAndTheBindFallsBackToOneTheSystemPicks() {
        int free = FreePorts.any();
        ReceptorPort.launch(free, properties -> {
            ports.add(properties.get("server.port"));
            if (ports.size() == 1) {
                throw new IllegalStateException("web server failed to start", new PortInUseException(free));
            }
            return null;
        });
        assertThat(ports).containsExactly(String.valueOf(free), "0");
    }

    @Test
    void anyOtherFailureIsTheReceptorsOwn() {
        assertThatThrownBy(() -> ReceptorPort.launch(0, properties -> {
            throw new IllegalStateException("schema validation failed");
        })).hasMessage("schema validation failed");
    }

    private ConfigurableApplicationContext starts(Map<String, String> properties) {
        assertThat(properties).containsEntry("server.address", "127.0.0.1");
        ports.add(properties.get("server.port"));
        return null;
    }
}
