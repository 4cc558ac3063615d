package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/**
 * What the executor enforces on a tree where cgroups cannot be used (sampling mode, forced here so that it is tested on
 * machines that have cgroups too): memory, process count, CPU weight as a nice level, open files, log size.
 */
class ProcessLimitsTest {

    private static final DataSize LOG_CAP = DataSize.ofKilobytes(64);

    @TempDir
    Path workDir;

    ExecutorHarness harness;

    ProcessExecutor executor;

    @BeforeEach
    void setUp() {
        harness = new ExecutorHarness(workDir);
        executor = harness.executor(ExecutorHarness.properties(workDir, LOG_CAP, IsolationSetting.SAMPLING));
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void treeOverItsMemoryLimitIsKilledAsOutOfMemory() {
        ContainerSpec spec = Specs.command("python3", "-c",
                "import time\nx = b'x' * (200 * 1024 * 1024)\ntime.sleep(1000)").memoryMb(50).build();

        executor.run(spec);

        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).isEqualTo("out of memory");
    }

    @Test
    void treeWithMoreProcessesThanMaxPidsIsKilled() {
        ContainerSpec spec = Specs.sh("for i in 1 2 3 4 5; do sleep 1000 & done; wait").maxPids(3).build();

        executor.run(spec);

        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        // sampled while the loop may still be forking: 4 to 6 processes
        assertThat(crashed.reason()).matches("too many processes: [4-6] > max_pids 3");
    }

    @Test
    void nofileLimitIsApplied() {
        ContainerSpec spec = Specs.sh("ulimit -n > nofile.tmp && mv nofile.tmp nofile; exec sleep 1000").nofile(256)
                .build();

        executor.run(spec);

        assertThat(harness.awaitFile(spec, "nofile").trim()).isEqualTo("256");
    }

    @Test
    void lowCpuWeightRunsTheTreeAtALowerPriority() {
        ContainerSpec spec = Specs.sh("cut -d' ' -f19 /proc/$$/stat > nice.tmp && mv nice.tmp nice; exec sleep 1000")
                .cpuWeight(50).build();

        executor.run(spec);

        // relative to this JVM's own niceness: the build itself may run under nice
        assertThat(Integer.parseInt(harness.awaitFile(spec, "nice").trim())).isEqualTo(Math.min(19, ownNiceness() + 3));
    }

    private static int ownNiceness() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void logsAreRotatedAtTheCap() throws IOException {
        ContainerSpec spec = Specs.sh("head -c 300000 /dev/zero | tr '\\0' x; echo to-stderr >&2; exec sleep 1000")
                .build();

        executor.run(spec);

        InstanceDir dir = harness.dir(spec);
        Path rotated = dir.root().resolve("stdout.log.1");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Files.exists(rotated) && Files.size(dir.stdout()) <= LOG_CAP.toBytes());
        assertThat(Files.size(rotated)).isEqualTo(LOG_CAP.toBytes());
        assertThat(Files.readString(rotated)).matches("x+");
        assertThat(Files.readString(dir.stderr())).isEqualTo("to-stderr\n");
    }
}
