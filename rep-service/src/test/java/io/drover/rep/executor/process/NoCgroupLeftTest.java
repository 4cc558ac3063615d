package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.rep.executor.process.cgroup.CgroupDetection;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Runs after every other test class of this JVM (junit-platform.properties orders classes by {@link Order}): the tests
 * that ran real processes in cgroups left none behind. Each executor removes an instance's cgroup with its instance,
 * its cell's when it closes and the JVM's base directory when the last factory closes, so nothing named after this
 * JVM may exist in any controller now.
 */
@Order(Integer.MAX_VALUE)
class NoCgroupLeftTest {

    @Test
    void noCgroupOfThisTestRunIsLeft() {
        assertThat(CgroupDetection.existing(ExecutorHarness.CGROUP_ROOT)).isEmpty();
    }
}
