package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Health checks (SPEC 8.3) against real listeners: tcp, http, monitor actions, start timeout. */
class ProcessHealthTest {

    private static final String SERVE = "exec python3 -m http.server $PORT --bind 127.0.0.1";

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
    void tcpCheckTurnsRunningOnlyOnceThePortListens() {
        ContainerSpec spec = Specs.sh("sleep 1; " + SERVE).ports(8080).tcpCheck(8080).build();

        executor.run(spec);

        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> state(spec)
                == ContainerState.STARTING);
        Container running = harness.awaitState(executor, spec, ContainerState.RUNNING);
        assertThat(listens(running.netInfo().ports().get(0).hostPort())).isTrue();
    }

    @Test
    void httpCheckTurnsRunningWhenThePathAnswers2xx() {
        ContainerSpec spec = Specs.sh(SERVE).ports(8080).httpCheck(8080, "/").build();

        executor.run(spec);

        harness.awaitState(executor, spec, ContainerState.RUNNING);
    }

    @Test
    void checkNeverPassingCrashesAfterTheStartTimeout() {
        ContainerSpec spec = Specs.sh(SERVE).ports(8080).httpCheck(8080, "/no-such-page").startTimeout(2).build();

        executor.run(spec);

        long startedAt = System.nanoTime();
        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).isEqualTo("failed to start within 2 s");
        assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isGreaterThan(Duration.ofMillis(1500));
        assertThat(harness.events).extracting(e -> e.container().state()).doesNotContain(ContainerState.RUNNING);
    }

    @Test
    void checkFailingAfterRunningKillsTheTreeWithTheChecksReason() {
        ContainerSpec spec = Specs.sh("python3 -m http.server $PORT --bind 127.0.0.1 & echo $! > server.tmp; "
                + "mv server.tmp server; sleep 1000 & echo $! > sleeper.tmp; mv sleeper.tmp sleeper; wait")
                .ports(8080).tcpCheck(8080).build();
        executor.run(spec);
        harness.awaitState(executor, spec, ContainerState.RUNNING);
        long sleeper = Long.parseLong(harness.awaitFile(spec, "sleeper").trim());

        ProcessHandle.of(Long.parseLong(harness.awaitFile(spec, "server").trim()))
                .ifPresent(ProcessHandle::destroyForcibly);

        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).startsWith("tcp check on port 8080 failed");
        assertThat(ExecutorHarness.gone(sleeper)).isTrue();
    }

    @Test
    void mainProcessExitingZeroBesideAMonitorHasDaemonised() throws IOException {
        ContainerSpec spec = Specs.sh("touch healthy; sleep 1000 > /dev/null 2>&1 & echo $! > daemon.tmp; "
                + "mv daemon.tmp daemon; exit 0").monitor("test -f healthy").build();
        executor.run(spec);
        long daemon = Long.parseLong(harness.awaitFile(spec, "daemon").trim());

        harness.awaitState(executor, spec, ContainerState.RUNNING);
        Files.delete(harness.dir(spec).app().resolve("healthy"));

        Container crashed = harness.awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).isEqualTo("monitor failed with status 1");
        assertThat(ExecutorHarness.gone(daemon)).isTrue();
    }

    @Test
    void stoppingADaemonisedContainerStopsTheDaemon() {
        ContainerSpec spec = Specs.sh("touch healthy; sleep 1000 > /dev/null 2>&1 & echo $! > daemon.tmp; "
                + "mv daemon.tmp daemon; exit 0").monitor("test -f healthy").build();
        executor.run(spec);
        long daemon = Long.parseLong(harness.awaitFile(spec, "daemon").trim());
        harness.awaitState(executor, spec, ContainerState.RUNNING);

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(2));

        harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(ExecutorHarness.gone(daemon)).isTrue();
    }

    @Test
    void stopKillsAMonitorRunInFlight() {
        ContainerSpec spec = Specs.command("sleep", "1000")
                .monitor("echo $$ > monitor.tmp && mv monitor.tmp monitor; exec sleep 1000").build();
        executor.run(spec);
        long monitor = Long.parseLong(harness.awaitFile(spec, "monitor").trim());

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(2));

        harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(ExecutorHarness.gone(monitor)).isTrue();
    }

    private ContainerState state(ContainerSpec spec) {
        return executor.container(spec.instanceGuid()).map(Container::state).orElse(null);
    }

    private static boolean listens(int port) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
