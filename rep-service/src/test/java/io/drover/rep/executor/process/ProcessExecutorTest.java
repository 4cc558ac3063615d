package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.json.Json;
import io.drover.model.lrp.NetInfo.PortMapping;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.InsufficientResourcesException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;
import tools.jackson.core.type.TypeReference;

/** Starting, crashing and stopping real processes. */
class ProcessExecutorTest {

    @TempDir
    Path workDir;

    ExecutorHarness harness;

    ProcessExecutor executor;

    @BeforeEach
    void setUp() {
        harness = new ExecutorHarness(workDir);
        executor = harness.executor();
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void processSeesItsInstanceEnvironmentAndPorts() {
        ContainerSpec spec = Specs.sh("env > env.tmp && mv env.tmp env.txt && exec sleep 1000").ports(8080, 9090)
                .env("GREETING", "hello").env("SHADOWED", "desired").actionEnv("SHADOWED", "action").index(3)
                .build();

        executor.run(spec);

        Map<String, String> env = Arrays.stream(harness.awaitFile(spec, "env.txt").split("\n"))
                .filter(line -> line.contains("=")).collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')),
                        l -> l.substring(l.indexOf('=') + 1), (a, b) -> b));
        Container container = harness.awaitState(executor, spec, ContainerState.RUNNING);
        List<PortMapping> ports = container.netInfo().ports();
        assertThat(ports).extracting(PortMapping::containerPort).containsExactly(8080, 9090);
        assertThat(env).containsEntry("PORT", Integer.toString(ports.get(0).hostPort()))
                .containsEntry("INSTANCE_INDEX", "3").containsEntry("INSTANCE_GUID", spec.instanceGuid())
                .containsEntry("DROVER_INSTANCE_ADDR", "10.0.0.5:" + ports.get(0).hostPort())
                .containsEntry("GREETING", "hello").containsEntry("SHADOWED", "action")
                .doesNotContainKey("SPRING_DATASOURCE_PASSWORD");
        assertThat(Json.read(env.get("DROVER_INSTANCE_PORTS"), new TypeReference<List<PortMapping>>() {
        })).isEqualTo(ports);
        assertThat(container.netInfo().address()).isEqualTo("10.0.0.5");
    }

    @Test
    void twoInstancesGetDifferentHostPorts() {
        ContainerSpec first = Specs.command("sleep", "1000").ports(8080).build();
        ContainerSpec second = Specs.command("sleep", "1000").ports(8080).build();

        executor.run(first);
        executor.run(second);

        int firstPort = harness.awaitState(executor, first, ContainerState.RUNNING).netInfo().ports().get(0)
                .hostPort();
        int secondPort = harness.awaitState(executor, second, ContainerState.RUNNING).netInfo().ports().get(0)
                .hostPort();
        assertThat(firstPort).isNotEqualTo(secondPort).isBetween(62000, 62999);
        assertThat(secondPort).isBetween(62000, 62999);
    }

    @Test
    void cellsOfOneRepNeverShareAHostPort() {
        List<ProcessExecutor> cells = harness.cells(ExecutorHarness.properties(workDir, DataSize.ofMegabytes(1)),
                "cell-b", "cell-c");
        ContainerSpec onB = Specs.command("sleep", "1000").ports(8080).build();
        ContainerSpec onC = Specs.command("sleep", "1000").ports(8080).build();

        cells.get(0).run(onB);
        cells.get(1).run(onC);

        assertThat(harness.awaitState(cells.get(0), onB, ContainerState.RUNNING).netInfo().ports())
                .doesNotContainAnyElementsOf(
                        harness.awaitState(cells.get(1), onC, ContainerState.RUNNING).netInfo().ports());
    }

    @Test
    void exitStatusNamesTheCrash() {
        ContainerSpec spec = Specs.sh("sleep 1; exit 3").build();

        executor.run(spec);

        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).isEqualTo("exited with status 3");
        assertThat(harness.events).extracting(e -> e.container().state()).containsExactly(ContainerState.STARTING,
                ContainerState.RUNNING, ContainerState.CRASHED);
    }

    @Test
    void deathBySignalNamesTheSignal() {
        ContainerSpec spec = Specs.sh("kill -9 $$").build();

        executor.run(spec);

        assertThat(harness.awaitState(executor, spec, ContainerState.CRASHED).reason())
                .isEqualTo("killed by signal 9");
    }

    @Test
    void missingExecutableCrashesWithAReadableReason() {
        ContainerSpec spec = Specs.command("no-such-program-anywhere").build();

        executor.run(spec);

        assertThat(harness.awaitState(executor, spec, ContainerState.CRASHED).reason())
                .isEqualTo("failed to start: no executable no-such-program-anywhere");
    }

    @Test
    void processIgnoringSigtermIsKilledAfterTheGracePeriod() {
        ContainerSpec spec = Specs.sh("trap '' TERM; echo $$ > pid.tmp && mv pid.tmp pid; sleep 1000").build();
        executor.run(spec);
        long pid = Long.parseLong(harness.awaitFile(spec, "pid").trim());
        harness.awaitState(executor, spec, ContainerState.RUNNING);

        long stopAt = System.nanoTime();
        executor.stop(spec.instanceGuid(), Duration.ofSeconds(1));

        assertThat(executor.container(spec.instanceGuid()).orElseThrow().state()).isEqualTo(ContainerState.RUNNING);
        harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(Duration.ofNanos(System.nanoTime() - stopAt)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        assertThat(ExecutorHarness.gone(pid)).isTrue();
    }

    @Test
    void stopLeavesNoOrphanBehind() {
        ContainerSpec spec = Specs.sh("sleep 1000 & echo $! > child.tmp && mv child.tmp child; wait").build();
        executor.run(spec);
        long child = Long.parseLong(harness.awaitFile(spec, "child").trim());
        assertThat(ExecutorHarness.gone(child)).isFalse();

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(5));

        Container stopped = harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(stopped.reason()).isNull();
        assertThat(ExecutorHarness.gone(child)).isTrue();
    }

    @Test
    void stopRightAfterRunLeavesNothingBehind() {
        List<ContainerSpec> specs = IntStream.range(0, 8)
                .mapToObj(i -> Specs.sh("sleep 1000 & sleep 1000").ports(8080).index(i).build()).toList();

        specs.forEach(executor::run);
        specs.forEach(spec -> executor.stop(spec.instanceGuid(), Duration.ofSeconds(5)));

        specs.forEach(spec -> harness.awaitState(executor, spec, ContainerState.STOPPED));
        assertThat(ExecutorHarness.processesWorkingUnder(workDir)).isEmpty();
    }

    @Test
    void stopReleasesTheHostPortsAndForgetRemovesTheDirectory() {
        ContainerSpec spec = Specs.command("sleep", "1000").ports(8080).build();
        executor.run(spec);
        harness.awaitState(executor, spec, ContainerState.RUNNING);
        assertThat(Files.exists(harness.dir(spec).pidFile())).isTrue();

        executor.stop(spec.instanceGuid(), null);
        harness.awaitState(executor, spec, ContainerState.STOPPED);
        executor.forget(spec.instanceGuid());

        assertThat(executor.containers()).isEmpty();
        assertThat(Files.exists(harness.dir(spec).root())).isFalse();
    }

    @Test
    void stoppingACrashedContainerReportsItStopped() {
        ContainerSpec spec = Specs.sh("exit 1").build();
        executor.run(spec);
        harness.awaitState(executor, spec, ContainerState.CRASHED);

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(1));
        executor.stop("unknown-guid", Duration.ofSeconds(1));

        assertThat(executor.container(spec.instanceGuid()).orElseThrow().state()).isEqualTo(ContainerState.STOPPED);
    }

    @Test
    void runningTheSameIncarnationTwiceStartsOneProcess() {
        ContainerSpec spec = Specs.command("sleep", "1000").build();

        executor.run(spec);
        executor.run(spec);

        harness.awaitState(executor, spec, ContainerState.RUNNING);
        assertThat(executor.containers()).hasSize(1);
    }

    @Test
    void cellRefusesWhatItCannotFit() {
        ContainerSpec big = Specs.command("sleep", "1000").memoryMb(ExecutorHarness.CAPACITY.memoryMb()).build();
        ContainerSpec more = Specs.command("sleep", "1000").memoryMb(1).build();
        executor.run(big);

        assertThatThrownBy(() -> executor.run(more)).isInstanceOf(InsufficientResourcesException.class);
        assertThat(executor.container(more.instanceGuid())).isEmpty();
    }
}
