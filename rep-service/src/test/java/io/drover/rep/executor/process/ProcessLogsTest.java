package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.InstanceLog;
import io.drover.rep.executor.LogFollower;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real process's output and the rep's lifecycle lines, in order, in the instance's log. */
class ProcessLogsTest {

    @TempDir
    Path workDir;

    ExecutorHarness harness;

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void theLogHoldsWhatTheProcessPrintedBetweenTheRepsLifecycleLines() throws Exception {
        harness = new ExecutorHarness(workDir);
        ProcessExecutor executor = harness.executor();
        ContainerSpec spec = Specs.sh("echo out-1; echo err-1 >&2; sleep 0.3; echo out-2; exec sleep 1000").build();
        executor.run(spec);
        harness.awaitState(executor, spec, ContainerState.RUNNING);
        InstanceLog log = executor.log(spec.instanceGuid()).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> texts(log.tail(10, EnumSet.allOf(LogSource.class)))
                .contains("stdout out-2"));

        LogFollower follower = log.follow(1, EnumSet.of(LogSource.STDOUT, LogSource.REP), 100);
        List<String> followed = new CopyOnWriteArrayList<>();
        executor.stop(spec.instanceGuid(), Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            LogLine line = follower.poll(Duration.ofMillis(100));
            if (line != null) {
                followed.add(line.source().label() + " " + line.text());
            }
            return follower.isDone();
        });

        assertThat(texts(log.tail(100, EnumSet.allOf(LogSource.class)))).startsWith(
                "rep claimed by cell-a as instance " + spec.instanceGuid() + "; starting")
                .contains("stdout out-1", "stderr err-1", "rep running")
                .containsSubsequence("stdout out-1", "stdout out-2").endsWith("rep stopped");
        assertThat(followed).startsWith("stdout out-2").contains("rep stopping (SIGTERM, then SIGKILL once the grace "
                + "period is over)").endsWith("rep stopped").doesNotContain("stderr err-1");
    }

    @Test
    void aCrashSaysWhyAfterTheLastOutput() {
        harness = new ExecutorHarness(workDir);
        ProcessExecutor executor = harness.executor();
        ContainerSpec spec = Specs.sh("echo dying; exit 7").build();
        executor.run(spec);
        harness.awaitState(executor, spec, ContainerState.CRASHED);
        List<String> lines = texts(executor.log(spec.instanceGuid()).orElseThrow().tail(100,
                EnumSet.allOf(LogSource.class)));
        assertThat(lines).containsSubsequence("stdout dying", "rep crashed: exited with status 7");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("rep crashed: exited with status 7");
    }

    private static List<String> texts(List<LogLine> lines) {
        return lines.stream().map(l -> l.source().label() + " " + l.text()).toList();
    }
}
