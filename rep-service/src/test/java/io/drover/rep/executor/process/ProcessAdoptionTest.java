package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rep restart: a new executor over the same work dir takes over the trees the old one left running. */
class ProcessAdoptionTest {

    @TempDir
    Path workDir;

    ExecutorHarness harness;

    @BeforeEach
    void setUp() {
        harness = new ExecutorHarness(workDir);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void newExecutorAdoptsTheRunningTreeAndNoticesItsDeath() {
        ProcessExecutor before = harness.executor();
        ContainerSpec spec = Specs.command("sleep", "1000").ports(8080).build();
        before.run(spec);
        Container running = harness.awaitState(before, spec, ContainerState.RUNNING);
        long pid = PidFile.read(harness.dir(spec).pidFile()).orElseThrow().pid();
        harness.abandon(before);

        ProcessExecutor after = harness.executor();
        List<Container> adopted = after.adopt();

        assertThat(adopted).singleElement().satisfies(c -> {
            assertThat(c.instanceGuid()).isEqualTo(spec.instanceGuid());
            assertThat(c.key()).isEqualTo(spec.key());
            assertThat(c.state()).isEqualTo(ContainerState.RUNNING);
            assertThat(c.netInfo()).isEqualTo(running.netInfo());
        });
        assertThat(PidFile.read(harness.dir(spec).pidFile()).orElseThrow().pid()).isEqualTo(pid);
        assertThat(ExecutorHarness.gone(pid)).isFalse();

        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);

        assertThat(harness.awaitState(after, spec, ContainerState.CRASHED).reason())
                .isEqualTo("exited (adopted process, status unknown)");
    }

    @Test
    void adoptedPortsAreNotHandedOutAgain() {
        ProcessExecutor before = harness.executor();
        ContainerSpec old = Specs.command("sleep", "1000").ports(8080).build();
        before.run(old);
        int oldPort = harness.awaitState(before, old, ContainerState.RUNNING).netInfo().ports().get(0).hostPort();
        harness.abandon(before);

        ProcessExecutor after = harness.executor();
        after.adopt();
        ContainerSpec fresh = Specs.command("sleep", "1000").ports(8080).build();
        after.run(fresh);

        assertThat(harness.awaitState(after, fresh, ContainerState.RUNNING).netInfo().ports().get(0).hostPort())
                .isNotEqualTo(oldPort);
    }

    @Test
    void adoptedContainerIsStoppedLikeAnyOther() {
        ProcessExecutor before = harness.executor();
        ContainerSpec spec = Specs.sh("sleep 1000 & echo $! > child.tmp && mv child.tmp child; wait").build();
        before.run(spec);
        long child = Long.parseLong(harness.awaitFile(spec, "child").trim());
        harness.awaitState(before, spec, ContainerState.RUNNING);
        harness.abandon(before);
        ProcessExecutor after = harness.executor();
        after.adopt();

        after.stop(spec.instanceGuid(), Duration.ofSeconds(2));

        harness.awaitState(after, spec, ContainerState.STOPPED);
        assertThat(ExecutorHarness.gone(child)).isTrue();
    }

    @Test
    void treesThatDiedWhileNoRepWatchedAreCleanedUp() {
        ProcessExecutor before = harness.executor();
        ContainerSpec spec = Specs.command("sleep", "1000").build();
        before.run(spec);
        harness.awaitState(before, spec, ContainerState.RUNNING);
        long pid = PidFile.read(harness.dir(spec).pidFile()).orElseThrow().pid();
        harness.abandon(before);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(Duration.ofSeconds(5)).until(() -> ExecutorHarness.gone(pid));

        ProcessExecutor after = harness.executor();

        assertThat(after.adopt()).isEmpty();
        assertThat(Files.exists(harness.dir(spec).root())).isFalse();
    }
}
