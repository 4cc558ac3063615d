package io.drover.rep.executor.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SubnetTest {

    @Test
    void blocksAreSlashThirtiesHandedOutLowestFirstAndReusedOnceReleased() {
        Subnet subnet = Subnet.parse("10.254.0.0/16");
        assertThat(subnet.allocate()).isZero();
        assertThat(subnet.allocate()).isEqualTo(1);
        assertThat(subnet.hostAddress(1)).isEqualTo("10.254.0.5");
        assertThat(subnet.instanceAddress(1)).isEqualTo("10.254.0.6");
        assertThat(subnet.instanceAddress(64)).isEqualTo("10.254.1.2");
        subnet.release(0);
        subnet.reserve(2);
        assertThat(subnet.allocate()).isZero();
        assertThat(subnet.allocate()).as("2 is held by an adopted instance").isEqualTo(3);
    }

    @Test
    void aFullSubnetAndABadOneAreRefused() {
        Subnet one = Subnet.parse("10.254.0.0/30");
        one.allocate();
        assertThatThrownBy(one::allocate).hasMessageContaining("no free address block");
        assertThatThrownBy(() -> Subnet.parse("10.254.0.0")).hasMessageContaining("a.b.c.d/n");
        assertThatThrownBy(() -> Subnet.parse("10.254.0.0/31")).hasMessageContaining("/30");
    }
}
