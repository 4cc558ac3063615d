package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellIsolation;
import io.drover.rep.executor.ExecutorFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.unit.DataSize;

/** The wiring alone: which executor a rep gets, and how its settings bind and are checked. */
class ProcessExecutorConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withBean(Clock.class, Clock::systemUTC).withUserConfiguration(ProcessExecutorConfiguration.class)
            .withPropertyValues("drover.rep.process.cgroup-root=" + ExecutorHarness.CGROUP_ROOT);

    @Test
    void processExecutorIsTheDefault() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(ExecutorFactory.class);
            ProcessExecutorProperties properties = context.getBean(ProcessExecutorProperties.class);
            assertThat(properties.hostPortRange()).isEqualTo("61000-61999");
            assertThat(properties.stopGrace()).isEqualTo(Duration.ofSeconds(10));
            assertThat(properties.startingPollInterval()).isEqualTo(Duration.ofMillis(500));
            assertThat(properties.runningPollInterval()).isEqualTo(Duration.ofSeconds(30));
            assertThat(properties.workDir()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "drover",
                    "cells"));
        });
    }

    @Test
    void settingsBind() {
        runner.withPropertyValues("drover.rep.process.host-port-range=40000-40099",
                "drover.rep.process.log-cap=2MB", "drover.rep.process.work-dir=/var/lib/drover").run(context -> {
                    ProcessExecutorProperties properties = context.getBean(ProcessExecutorProperties.class);
                    assertThat(properties.portRange()).isEqualTo(new PortRange(40000, 40099));
                    assertThat(properties.logCap()).isEqualTo(DataSize.ofMegabytes(2));
                    assertThat(properties.workDir()).isEqualTo(Path.of("/var/lib/drover"));
                });
    }

    @Test
    void isolationBindsAndACgroupRootMustBeOneDirectoryName() {
        runner.withPropertyValues("drover.rep.process.isolation=sampling").run(context -> {
            assertThat(context.getBean(ProcessExecutorProperties.class).isolation())
                    .isEqualTo(ProcessExecutorProperties.IsolationSetting.SAMPLING);
            assertThat(context.getBean(ExecutorFactory.class).isolation()).isEqualTo(CellIsolation.SAMPLING);
        });
        runner.withPropertyValues("drover.rep.process.cgroup-root=../escape")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("cgroup-root"));
    }

    @Test
    void simulatedExecutorSwitchesItOff() {
        runner.withPropertyValues("drover.rep.executor=simulated")
                .run(context -> assertThat(context).doesNotHaveBean(ExecutorFactory.class));
    }

    @Test
    void invalidPortRangeFailsTheStartup() {
        runner.withPropertyValues("drover.rep.process.host-port-range=70000-70010").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("host port range"));
        runner.withPropertyValues("drover.rep.process.host-port-range=62000-61000")
                .run(context -> assertThat(context).hasFailed());
        runner.withPropertyValues("drover.rep.process.host-port-range=lots")
                .run(context -> assertThat(context).hasFailed());
    }
}
