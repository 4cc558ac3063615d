package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.rep.executor.InsufficientResourcesException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HostPortsTest {

    @Test
    void grantedPortsNeverRepeatUntilReleased() {
        HostPorts ports = new HostPorts(new PortRange(63100, 63109));
        Set<Integer> granted = new HashSet<>();

        for (int i = 0; i < 5; i++) {
            granted.addAll(ports.reserve(2));
        }

        assertThat(granted).hasSize(10).allMatch(p -> p >= 63100 && p <= 63109);
        assertThatThrownBy(() -> ports.reserve(1)).isInstanceOf(InsufficientResourcesException.class);
    }

    @Test
    void portAnotherProgramListensOnIsSkipped() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            int port = taken.getLocalPort();
            if (port < 1024 || port > 65535 - 20) {
                return;
            }
            // the range starts at the taken port; twenty more leave room for ports other programs hold meanwhile
            HostPorts ports = new HostPorts(new PortRange(port, port + 20));

            assertThat(ports.reserve(1)).doesNotContain(port);
        }
    }

    @Test
    void failedReservationGivesBackWhatItTook() {
        HostPorts ports = new HostPorts(new PortRange(63120, 63122));

        assertThatThrownBy(() -> ports.reserve(4)).isInstanceOf(InsufficientResourcesException.class);

        assertThat(ports.reservedCount()).isZero();
        assertThat(ports.reserve(3)).hasSize(3);
    }

    @Test
    void releasedPortIsHandedOutOnlyAfterTheRestOfTheRange() {
        HostPorts ports = new HostPorts(new PortRange(63130, 63133));
        List<Integer> first = ports.reserve(1);
        ports.release(first);

        assertThat(ports.reserve(3)).doesNotContainAnyElementsOf(first);
        assertThat(ports.reserve(1)).isEqualTo(first);
    }

    @Test
    void adoptedPortsAreReservedAndAClashIsReported() {
        HostPorts ports = new HostPorts(new PortRange(63140, 63149));

        assertThat(ports.reserveExisting(List.of(63140, 63141))).isTrue();
        assertThat(ports.reserveExisting(List.of(63141))).isFalse();
        assertThat(ports.reserve(1)).containsExactly(63142);
    }
}
