package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import io.drover.rep.executor.ContainerUsage;
import io.drover.rep.executor.LogLine;
import io.drover.rep.executor.LogSource;
import io.drover.rep.executor.process.cgroup.CgroupLimits;
import io.drover.rep.executor.process.cgroup.Cgroups;
import io.drover.rep.executor.process.cgroup.InstanceCgroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

/**
 * What the kernel enforces once each instance has a cgroup, on real processes: memory (a spike sampling would miss),
 * CPU weight, max_pids, a stop that reaches processes which left the tree's session, adoption by cgroup. Needs root
 * (or a delegated cgroup) and cgroup controllers; skipped, saying why, elsewhere.
 */
class CgroupIsolationTest {

    @TempDir
    Path workDir;

    ExecutorHarness harness;

    ProcessExecutor executor;

    Cgroups cgroups;

    @BeforeEach
    void setUp() {
        harness = new ExecutorHarness(workDir);
        executor = harness.executor(ExecutorHarness.properties(workDir, DataSize.ofMegabytes(1),
                IsolationSetting.AUTO));
        Assumptions.assumeTrue(harness.cgroups().isPresent(), "cgroups cannot be used here (needs root and the "
                + "memory, cpu, cpuacct, pids, freezer controllers, or cgroup v2): see the process-executor log line");
        cgroups = harness.cgroups().orElseThrow();
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void aSpikeOfThreeHundredMegabytesForFiftyMillisecondsIsKilledAsOutOfMemory() {
        ContainerSpec spec = Specs.command("python3", "-c", "import time\nb = b'x' * (300 * 1024 * 1024)\n"
                + "time.sleep(0.05)\ndel b\ntime.sleep(1000)").memoryMb(64).build();

        executor.run(spec);

        assertThat(harness.awaitState(executor, spec, ContainerState.CRASHED).reason()).isEqualTo("out of memory");
        assertThat(repLines(executor, spec)).last().isEqualTo("crashed: out of memory");
    }

    @Test
    void twoBusyLoopsOnOneCpuShareItInTheRatioOfTheirWeights() {
        ContainerSpec light = Specs.command("taskset", "-c", "0", "sh", "-c", "while :; do :; done").cpuWeight(10)
                .build();
        ContainerSpec heavy = Specs.command("taskset", "-c", "0", "sh", "-c", "while :; do :; done").cpuWeight(90)
                .build();
        executor.run(light);
        executor.run(heavy);
        harness.awaitState(executor, light, ContainerState.RUNNING);
        harness.awaitState(executor, heavy, ContainerState.RUNNING);
        InstanceCgroup lightGroup = cgroupOf(light);
        InstanceCgroup heavyGroup = cgroupOf(heavy);
        long lightStart = lightGroup.sample().cpuNanos();
        long heavyStart = heavyGroup.sample().cpuNanos();

        // a second of CPU between them: many scheduler periods, however busy the machine is
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> lightGroup.sample()
                .cpuNanos() - lightStart + heavyGroup.sample().cpuNanos() - heavyStart > 1_000_000_000L);

        double lightUsed = lightGroup.sample().cpuNanos() - lightStart;
        double heavyUsed = heavyGroup.sample().cpuNanos() - heavyStart;
        double share = lightUsed / (lightUsed + heavyUsed);
        System.out.printf("cpu-weight-share light=%.3f (weights 10:90, cpu used %.2f s)%n", share,
                (lightUsed + heavyUsed) / 1e9);
        assertThat(share).as("share of the weight-10 loop (weights 10:90)").isBetween(0.03, 0.2);
    }

    @Test
    void maxPidsStopsAForkBomb() {
        // A bomb with a fuse: unconstrained it would double to 255 processes; max_pids allows 20.
        ContainerSpec spec = Specs.sh("bomb() { if [ $1 -gt 0 ]; then bomb $(($1 - 1)) & bomb $(($1 - 1)) & fi; "
                + "exec sleep 1000; }; bomb 7").maxPids(20).build();

        executor.run(spec);

        InstanceCgroup group = cgroupOf(spec);
        Path pidsEvents = group.dirs().getOrDefault("pids", group.dirs().get("unified")).resolve("pids.events");
        await().atMost(Duration.ofSeconds(30)).until(() -> forksRefused(pidsEvents) > 0);
        assertThat(group.pids()).hasSizeLessThanOrEqualTo(20);
        assertThat(ExecutorHarness.processesWorkingUnder(workDir)).hasSizeLessThanOrEqualTo(20);

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(1));

        await().atMost(Duration.ofSeconds(15)).until(() -> executor.container(spec.instanceGuid())
                .map(Container::state).filter(s -> s == ContainerState.STOPPED || s == ContainerState.CRASHED)
                .isPresent());
        assertThat(ExecutorHarness.processesWorkingUnder(workDir)).isEmpty();
    }

    @Test
    void aStopLeavesNoProcessBehindNotEvenOneThatLeftTheSessionAndItsParent() {
        ContainerSpec spec = Specs.sh("setsid sh -c 'sleep 1000 & echo $! > escaped.tmp && mv escaped.tmp escaped' & "
                + "exec sleep 1000").build();
        executor.run(spec);
        long escaped = Long.parseLong(harness.awaitFile(spec, "escaped").trim());
        harness.awaitState(executor, spec, ContainerState.RUNNING);
        assertThat(ExecutorHarness.gone(escaped)).isFalse();
        assertThat(ProcTable.stat(escaped).orElseThrow().session()).as("left the instance's session")
                .isNotEqualTo(ProcTable.stat(PidFile.read(harness.dir(spec).pidFile()).orElseThrow().pid())
                        .orElseThrow().session());

        executor.stop(spec.instanceGuid(), Duration.ofSeconds(1));

        harness.awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(ExecutorHarness.gone(escaped)).isTrue();
        assertThat(cgroupOf(spec).dirs().values()).noneMatch(Files::exists);
    }

    @Test
    void aRestartedRepAdoptsByCgroupAndItsStopStillReachesEveryProcess() {
        ProcessExecutor before = executor;
        ContainerSpec spec = Specs.sh("setsid sh -c 'sleep 1000 & echo $! > escaped.tmp && mv escaped.tmp escaped' & "
                + "exec sleep 1000").build();
        before.run(spec);
        long escaped = Long.parseLong(harness.awaitFile(spec, "escaped").trim());
        harness.awaitState(before, spec, ContainerState.RUNNING);
        harness.abandon(before);

        ProcessExecutor after = harness.executor(ExecutorHarness.properties(workDir, DataSize.ofMegabytes(1)));
        List<Container> adopted = after.adopt();

        assertThat(adopted).singleElement().extracting(Container::instanceGuid).isEqualTo(spec.instanceGuid());
        assertThat(PidFile.read(harness.dir(spec).pidFile()).orElseThrow().cgroupDirs())
                .isEqualTo(cgroupOf(spec).dirs());
        after.stop(spec.instanceGuid(), Duration.ofSeconds(1));
        harness.awaitState(after, spec, ContainerState.STOPPED);
        assertThat(ExecutorHarness.gone(escaped)).isTrue();
        assertThat(repLines(after, spec)).anyMatch(line -> line.startsWith("re-adopted by the rep after its restart"))
                .last().isEqualTo("stopped");
    }

    @Test
    void aCgroupNoPidFileAccountsForIsKilledAndRemovedOnAdoption() throws Exception {
        InstanceCgroup stray = cgroups.instance("cell-a", "stray");
        stray.create(CgroupLimits.of(0, 0, 0));
        List<String> command = new ArrayList<>(stray.joinCommand(Path.of("/bin/sh")));
        command.addAll(List.of("sleep", "1000"));
        Process process = new ProcessBuilder(command).start();
        await().atMost(Duration.ofSeconds(5)).until(() -> stray.pids().contains(process.pid()));
        harness.abandon(executor);

        ProcessExecutor after = harness.executor(ExecutorHarness.properties(workDir, DataSize.ofMegabytes(1)));

        assertThat(after.adopt()).isEmpty();
        assertThat(process.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(cgroups.instanceNames("cell-a")).isEmpty();
    }

    @Test
    void usageOfAWebServerIsPlausibleAndFollowsItsLoad() {
        ContainerSpec spec = Specs.sh("exec python3 -m http.server --bind 127.0.0.1 \"$PORT\"").ports(8080)
                .memoryMb(128).httpCheck(8080, "/").build();
        executor.run(spec);
        int port = harness.awaitState(executor, spec, ContainerState.RUNNING).netInfo().ports().get(0).hostPort();

        ContainerUsage first = executor.usage().get(0);
        assertThat(first.memoryBytes()).isBetween(1L << 20, 128L << 20);
        assertThat(first.memoryLimitBytes()).isEqualTo(128L << 20);
        assertThat(first.diskBytes()).isPositive();
        assertThat(first.startedAt()).isBefore(java.time.Instant.now());
        // each call measures the CPU used since the previous one
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(700))
                .until(() -> executor.usage().get(0).cpuPercent() < 5);
        try (Load load = Load.on(port)) {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(700))
                    .until(() -> executor.usage().get(0).cpuPercent() > 5);
        }
    }

    private InstanceCgroup cgroupOf(ContainerSpec spec) {
        return cgroups.instance("cell-a", InstanceDir.safeName(spec.instanceGuid()));
    }

    private static long forksRefused(Path pidsEvents) throws Exception {
        String events = Files.readString(pidsEvents);
        return events.lines().filter(l -> l.startsWith("max ")).mapToLong(l -> Long.parseLong(l.substring(4).trim()))
                .sum();
    }

    /** The rep's lifecycle lines in the instance's journal (the log the API serves), oldest first. */
    private static List<String> repLines(ProcessExecutor executor, ContainerSpec spec) {
        return executor.log(spec.instanceGuid()).orElseThrow().tail(100, EnumSet.of(LogSource.REP)).stream()
                .map(LogLine::text).toList();
    }

    /** Requests in a loop from two threads, until closed. */
    private record Load(List<Thread> threads) implements AutoCloseable {

        static Load on(int port) {
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build();
            List<Thread> threads = List.of(new Thread(() -> hammer(http, request)),
                    new Thread(() -> hammer(http, request)));
            threads.forEach(t -> {
                t.setDaemon(true);
                t.start();
            });
            return new Load(threads);
        }

        private static void hammer(HttpClient http, HttpRequest request) {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    http.send(request, HttpResponse.BodyHandlers.discarding());
                } catch (InterruptedException e) {
                    return;
                } catch (IOException e) {
                    // the server is busy or going away: try again
                }
            }
        }

        @Override
        public void close() {
            threads.forEach(Thread::interrupt);
        }
    }
}
