package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    private final List<Long> orphans = new ArrayList<>();

    @AfterEach
    void tearDown() {
        orphans.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
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

    @Test
    void treeTheRepIsNotParentOfIsAdoptedAndItsDeathNoticed() throws Exception {
        ContainerSpec spec = Specs.command("sleep", "1000").build();
        long pid = startOrphan(harness.dir(spec));
        writePidFile(spec, pid, ProcTable.stat(pid).orElseThrow().startTime());
        ProcessExecutor executor = harness.executor();

        assertThat(executor.adopt()).singleElement().extracting(Container::state).isEqualTo(ContainerState.RUNNING);
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);

        assertThat(harness.awaitState(executor, spec, ContainerState.CRASHED).reason())
                .isEqualTo("exited (adopted process, status unknown)");
    }

    @Test
    void reusedPidIsNeitherAdoptedNorKilled() throws Exception {
        ContainerSpec spec = Specs.command("sleep", "1000").build();
        long pid = startOrphan(harness.dir(spec));
        writePidFile(spec, pid, ProcTable.stat(pid).orElseThrow().startTime() - 1);
        ProcessExecutor executor = harness.executor();

        assertThat(executor.adopt()).isEmpty();

        assertThat(ExecutorHarness.gone(pid)).isFalse();
        assertThat(Files.exists(harness.dir(spec).pidFile())).isFalse();
    }

    /** A session leader whose parent has exited, as a workload is after the rep that started it died. */
    private long startOrphan(InstanceDir dir) throws Exception {
        dir.create();
        Process shell = new ProcessBuilder("sh", "-c", "setsid sleep 1000 > /dev/null 2>&1 < /dev/null & echo $!")
                .directory(dir.app().toFile()).redirectErrorStream(true).start();
        long pid = Long.parseLong(new String(shell.getInputStream().readAllBytes()).trim());
        shell.waitFor();
        orphans.add(pid);
        await().atMost(Duration.ofSeconds(5)).until(() -> ProcTable.stat(pid).map(ProcStat::session)
                .orElse(0L) == pid);
        return pid;
    }

    private void writePidFile(ContainerSpec spec, long pid, long startTime) {
        new PidFile(pid, startTime, pid, "cell-a", spec.key().processGuid(), spec.key().index(), spec.instanceGuid(),
                spec.definition().domain(), "10.0.0.5", List.of(), true, false, System.currentTimeMillis(),
                spec.definition(), null, spec.runs()).write(harness.dir(spec).pidFile());
    }
}
