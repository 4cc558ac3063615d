package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.LogSource;
import io.drover.rep.executor.RunOnce;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Composite actions on real processes: each kind's semantics, and every step a member of the container's tree. */
class ProcessActionsTest {

    @TempDir
    Path workDir;

    private ExecutorHarness harness;
    private ProcessExecutor executor;

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
    void serialRunsStepsInOrderInTheInstanceDirectoryAndEndsCleanly() {
        ContainerSpec spec = spec(Action.inSerial(List.of(sh("echo one > steps.txt"), sh("echo two >> steps.txt"))));

        Container ended = run(spec);

        assertThat(RunOnce.succeeded(ended)).isTrue();
        assertThat(executor.readFile(spec.instanceGuid(), "steps.txt", 100)).hasValue("one\ntwo\n");
    }

    @Test
    void serialStopsAtTheFirstFailureAndTryIgnoresIt() {
        ContainerSpec failing = spec(Action.inSerial(List.of(sh("exit 3"), sh("touch never"))));
        assertThat(run(failing).reason()).isEqualTo("exited with status 3");
        assertThat(executor.readFile(failing.instanceGuid(), "never", 10)).isEmpty();

        ContainerSpec tried = spec(Action.inSerial(List.of(Action.trying(sh("exit 3")), sh("touch reached"))));
        assertThat(RunOnce.succeeded(run(tried))).isTrue();
        assertThat(executor.readFile(tried.instanceGuid(), "reached", 10)).hasValue("");
    }

    @Test
    void parallelWaitsForAllAndFailsWithTheFirstFailure() {
        ContainerSpec spec = spec(Action.inParallel(List.of(sh("sleep 0.5; touch slow"), sh("exit 4"))));

        Container ended = run(spec);

        assertThat(ended.reason()).isEqualTo("exited with status 4");
        assertThat(executor.readFile(spec.instanceGuid(), "slow", 10)).as("waited for the slow step").hasValue("");
    }

    @Test
    void codependentEndsWithTheFirstAndKillsTheOthers() {
        String marker = "codependent-" + UUID.randomUUID();
        ContainerSpec spec = spec(Action.codependently(List.of(sh("sleep 600; echo " + marker),
                sh("sleep 2; exit 0"))));
        executor.run(spec);
        await().atMost(Duration.ofSeconds(15)).until(() -> processes(marker) == 1);

        Container ended = awaitEnd(spec);

        assertThat(RunOnce.succeeded(ended)).isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> processes(marker) == 0);
    }

    @Test
    void aTimeoutFailsTheActionAndKillsItsProcesses() {
        String marker = "timeout-" + UUID.randomUUID();
        ContainerSpec spec = spec(Action.withTimeout(sh("sleep 600; echo " + marker), 2000));
        executor.run(spec);
        await().atMost(Duration.ofSeconds(15)).until(() -> processes(marker) == 1);

        Container ended = awaitEnd(spec);

        assertThat(ended.reason()).isEqualTo("exceeded 2000 ms timeout");
        await().atMost(Duration.ofSeconds(10)).until(() -> processes(marker) == 0);
    }

    @Test
    void progressMessagesGoIntoTheInstanceLog() throws Exception {
        ContainerSpec spec = spec(Action.inSerial(List.of(
                Action.emittingProgress(sh("echo working"), "starting step", "step done", "step failed"),
                Action.emittingProgress(sh("exit 5"), "second step", "never", "second step failed"))));

        run(spec);

        List<String> log = executor.log(spec.instanceGuid()).orElseThrow().tail(100, EnumSet.allOf(LogSource.class))
                .stream().map(l -> l.source().label() + " " + l.text()).toList();
        assertThat(log).containsSubsequence("rep starting step", "stdout working", "rep step done",
                "rep second step", "rep second step failed: exited with status 5");
    }

    @Test
    void aDownloadedArchiveIsUnpackedAndItsProgramRuns() throws Exception {
        Path archive = workDir.resolve("tool.tgz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(archive))) {
            out.write(ArchivesTest.tar(ArchivesTest.entry("run.sh", "#!/bin/sh\necho 42 > ../result.txt\n", 0755)));
        }
        ContainerSpec spec = spec(Action.inSerial(List.of(
                Action.downloading(archive.toUri().toString(), "tool", "tool-v1"),
                new Action(new RunAction("./run.sh", List.of(), "tool", List.of(), null)))));

        assertThat(RunOnce.succeeded(run(spec))).isTrue();
        assertThat(executor.readFile(spec.instanceGuid(), "result.txt", 100)).hasValue("42\n");

        Files.delete(archive);
        ContainerSpec cached = spec(Action.inSerial(List.of(
                Action.downloading(archive.toUri().toString(), "tool", "tool-v1"),
                new Action(new RunAction("./run.sh", List.of(), "tool", List.of(), null)))));
        assertThat(RunOnce.succeeded(run(cached))).as("served from the cell's cache").isTrue();
        ContainerSpec missing = spec(Action.downloading(archive.toUri().toString(), "tool", null));
        assertThat(run(missing).reason()).startsWith("download failed: ");
    }

    @Test
    void aStopKillsTheStepThatIsRunning() {
        String marker = "stopped-" + UUID.randomUUID();
        ContainerSpec spec = spec(Action.inSerial(List.of(sh("true"), sh("sleep 600; echo " + marker),
                sh("touch after"))));
        executor.run(spec);
        await().atMost(Duration.ofSeconds(15)).until(() -> processes(marker) == 1);

        executor.stop(spec.instanceGuid(), Duration.ofMillis(200));

        harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(processes(marker)).isZero();
        assertThat(executor.readFile(spec.instanceGuid(), "after", 10)).isEmpty();
    }

    private Container run(ContainerSpec spec) {
        executor.run(spec);
        return awaitEnd(spec);
    }

    private Container awaitEnd(ContainerSpec spec) {
        await().atMost(Duration.ofSeconds(20)).until(() -> executor.container(spec.instanceGuid())
                .map(RunOnce::ended).orElse(false));
        return executor.container(spec.instanceGuid()).orElseThrow();
    }

    private static Action sh(String script) {
        return new Action(new RunAction("sh", List.of("-c", script), null, List.of(), null));
    }

    private static ContainerSpec spec(Action action) {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("tree-" + UUID.randomUUID(), "test-domain",
                "preloaded:host", 1, action, null, null, 0, List.of(), List.of(), 0, 0, 0, 0, List.of(), null, null,
                null, null);
        return new ContainerSpec(ActualLrpKey.of(definition.processGuid(), 0), "guid-" + UUID.randomUUID(),
                definition);
    }

    private static long processes(String marker) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(marker)).count();
    }
}
