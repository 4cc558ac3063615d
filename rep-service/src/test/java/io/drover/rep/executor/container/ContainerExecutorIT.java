package io.drover.rep.executor.container;

import static io.drover.rep.executor.container.ContainerHarness.awaitState;
import static io.drover.rep.executor.container.ContainerHarness.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.Action;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.LogSource;
import io.drover.rep.executor.RunOnce;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container executor on a real OCI runtime with real processes (issue 43): every instance in its own namespaces,
 * root filesystem and cgroup. Needs root and runc (installed by {@code .ci/install-runc}); skipped loudly without.
 */
class ContainerExecutorIT {

    @TempDir
    Path tmp;

    ContainerHarness harness;

    @BeforeAll
    static void runtime() {
        ContainerHarness.requireRuntime();
    }

    @BeforeEach
    void setUp() {
        // the root filesystems are shared with ./drover-local --rootfs: a debootstrap tree is made once per machine
        harness = new ContainerHarness(tmp, Path.of("/var/lib/drover/rootfs"));
    }

    @AfterEach
    void tearDown() throws Exception {
        harness.close();
    }

    @Test
    void anInstanceSeesItsOwnPidOneHostnameAndUser() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = sh("(tr '\\0' '\\n' < /proc/1/cmdline | head -1; hostname; id -u; "
                + "ls /proc | grep -c '^[0-9]') > /app/out.tmp && mv /app/out.tmp /app/out; exec sleep 60");
        executor.run(spec);
        String[] out = harness.awaitFile("cell-a", spec, "out").split("\n");
        assertThat(out[0]).as("pid 1").startsWith(BundleConfig.INIT);
        assertThat(out[1]).as("hostname").isEqualTo(spec.instanceGuid());
        assertThat(out[2]).as("uid").isEqualTo("2000");
        assertThat(Integer.parseInt(out[3])).as("processes it sees").isLessThan(6);
        assertThat(awaitState(executor, spec, ContainerState.RUNNING).reason()).isNull();
    }

    @Test
    void aMonitorRunsInsideTheContainerBesideTheWorkload() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec plain = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                "sleep 1; echo ready > /tmp/ready; exec sleep 60"), null, List.of(), null)), "preloaded:host",
                List.of(), 0, 0, null);
        var d = plain.definition();
        // the file is in the container's own /tmp: only a monitor inside the container can see it
        ContainerSpec spec = new ContainerSpec(plain.key(), plain.instanceGuid(),
                new io.drover.model.lrp.DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), 1, d.action(),
                        new RunAction("test", List.of("-f", "/tmp/ready"), null, List.of(), null), null, 30, d.env(),
                        d.ports(), 0, 0, 0, 0, List.of(), null, null, null, null));
        executor.run(spec);
        assertThat(executor.container(spec.instanceGuid()).orElseThrow().state()).isEqualTo(ContainerState.STARTING);
        awaitState(executor, spec, ContainerState.RUNNING);
        assertThat(Path.of("/tmp/ready")).doesNotExist();
    }

    @Test
    void aRunActionNamesItsUser() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                "id -u > /app/out.tmp && id -g >> /app/out.tmp && mv /app/out.tmp /app/out; exec sleep 60"), null,
                List.of(), null, "3000:3001")), "preloaded:host", List.of(), 0, 0, null);
        executor.run(spec);
        assertThat(harness.awaitFile("cell-a", spec, "out")).isEqualTo("3000\n3001");
    }

    @Test
    void anInstanceCannotSeeAnotherInstancesProcessesOrFiles() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec first = sh("echo secret > /tmp/first-secret; echo secret > /app/first-secret; "
                + "exec sleep 3601");
        executor.run(first);
        harness.awaitFile("cell-a", first, "first-secret");
        ContainerSpec second = sh("(grep -l '360[1]' /proc/[0-9]*/cmdline 2>/dev/null | wc -l; "
                + "ls /tmp/first-secret /app/first-secret 2>/dev/null | wc -l; "
                + "echo x > /etc/drover-written 2>/dev/null && echo wrote || echo refused) | tr '\\n' '|' "
                + "> /app/out.tmp && mv /app/out.tmp /app/out; exec sleep 60");
        executor.run(second);
        assertThat(harness.awaitFile("cell-a", second, "out")).isEqualTo("0|0|refused|");
        assertThat(Path.of("/etc/drover-written")).doesNotExist();
    }

    @Test
    void anInstanceIsReachableOnItsHostPortButCannotReachTheCellsLoopback() throws Exception {
        // a stand-in for the rep's admin and log ports, PostgreSQL and Kafka: bound to the cell's loopback
        try (ServerSocket repAdmin = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Executor executor = harness.executor("cell-a");
            String probe = "for target in 127.0.0.1:" + repAdmin.getLocalPort() + " $GATEWAY:"
                    + repAdmin.getLocalPort() + "; do "
                    + "timeout 2 bash -c \"echo > /dev/tcp/${target%:*}/${target#*:}\" 2>/dev/null "
                    + "&& echo reached || echo refused; done";
            ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                    "GATEWAY=${DROVER_INSTANCE_INTERNAL_IP%.*}.$((${DROVER_INSTANCE_INTERNAL_IP##*.} - 1)); "
                            + "(echo $PORT; " + probe + ") | tr '\\n' '|' > /app/out.tmp && mv /app/out.tmp /app/out; "
                            + "exec python3 -m http.server $PORT --bind 0.0.0.0"),
                    null, List.of(), null)), "preloaded:host", List.of(8080), 0, 0,
                    new CheckDefinition(List.of(new Check(null, new CheckDefinition.HttpCheck(8080, "/", 1000)))));
            executor.run(spec);
            assertThat(harness.awaitFile("cell-a", spec, "out")).isEqualTo("8080|refused|refused|");
            Container running = awaitState(executor, spec, ContainerState.RUNNING);
            int hostPort = running.netInfo().ports().get(0).hostPort();
            HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + hostPort + "/")
                    .toURL().openConnection();
            assertThat(connection.getResponseCode()).isEqualTo(200);
            connection.disconnect();
        }
    }

    @Test
    void theRuntimeSetsTheCgroupLimitsAndTheUsageIsMeasured() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec limited = ContainerHarness.spec(new Action(new RunAction("python3", List.of("-c", String.join(
                "\n", "import os, time", "n = 0", "try:", "    for i in range(10):",
                "        if os.fork() == 0:", "            time.sleep(30)", "            os._exit(0)", "        n += 1",
                "except OSError:", "    pass", "open('/app/forked.tmp', 'w').write(str(n))",
                "os.rename('/app/forked.tmp', '/app/forked')", "time.sleep(60)")),
                null, List.of(), null)), "preloaded:host", List.of(), 64, 0, null);
        ContainerSpec limitedPids = new ContainerSpec(limited.key(), limited.instanceGuid(), withMaxPids(limited, 5));
        executor.run(limitedPids);
        assertThat(Integer.parseInt(harness.awaitFile("cell-a", limitedPids, "forked")))
                .as("children forked under max_pids 5 (tini and sh count)").isEqualTo(3);
        await().atMost(Duration.ofSeconds(20)).until(() -> executor.usage().stream()
                .anyMatch(u -> u.instanceGuid().equals(limitedPids.instanceGuid()) && u.memoryBytes() > 0));
        assertThat(executor.usage()).filteredOn(u -> u.instanceGuid().equals(limitedPids.instanceGuid()))
                .singleElement().satisfies(u -> assertThat(u.memoryLimitBytes()).isEqualTo(64L << 20));

        ContainerSpec hungry = ContainerHarness.spec(new Action(new RunAction("python3", List.of("-c",
                "import time; b = bytearray(256 << 20); time.sleep(60)"), null, List.of(), null)), "preloaded:host",
                List.of(), 64, 0, null);
        executor.run(hungry);
        assertThat(awaitState(executor, hungry, ContainerState.CRASHED).reason()).isEqualTo("out of memory");
    }

    private static io.drover.model.lrp.DesiredLrpDefinition withMaxPids(ContainerSpec spec, int maxPids) {
        var d = spec.definition();
        return new io.drover.model.lrp.DesiredLrpDefinition(d.processGuid(), d.domain(), d.rootfs(), d.instances(),
                d.action(), d.monitor(), d.checkDefinition(), d.startTimeout(), d.env(), d.ports(), d.memoryMb(),
                d.diskMb(), maxPids, d.cpuWeight(), d.placementTags(), d.routes(), d.annotation(), d.logGuid(),
                d.metricsGuid());
    }

    @Test
    void aFileWrittenOutsideTheAppDirectoryDoesNotSurviveARestart() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec first = sh("echo kept > /app/kept; echo lost > /tmp/lost; echo lost > /var/lost; "
                + "touch /app/done; exec sleep 60");
        executor.run(first);
        harness.awaitFile("cell-a", first, "done");
        executor.stop(first.instanceGuid(), Duration.ofSeconds(5));
        awaitState(executor, first, ContainerState.STOPPED);
        executor.forget(first.instanceGuid());
        ContainerSpec restarted = new ContainerSpec(first.key(), first.instanceGuid() + "-2", sh(
                "(ls /tmp/lost /var/lost 2>/dev/null | wc -l) > /app/out.tmp && mv /app/out.tmp /app/out; sleep 60")
                .definition());
        executor.run(restarted);
        assertThat(harness.awaitFile("cell-a", restarted, "out")).isEqualTo("0");
    }

    @Test
    void anExitStatusIsTheWorkloadsAndALineReachesTheJournal() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = sh("echo hello from the container; exit 3");
        executor.run(spec);
        Container crashed = awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(crashed.reason()).isEqualTo("exited with status 3");
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.log(spec.instanceGuid()).orElseThrow()
                .tail(50, EnumSet.of(LogSource.STDOUT)).stream()
                .anyMatch(line -> line.text().contains("hello from the container")));
    }

    @Test
    void aStopReachesTheWorkloadWithSigtermAndEndsItGracefully() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = sh("trap 'touch /app/terminated; exit 0' TERM; touch /app/ready; "
                + "while true; do sleep 0.1; done");
        executor.run(spec);
        harness.awaitFile("cell-a", spec, "ready");
        long before = System.nanoTime();
        executor.stop(spec.instanceGuid(), Duration.ofSeconds(20));
        awaitState(executor, spec, ContainerState.STOPPED);
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aNewRepAdoptsTheContainersAKilledOneLeftRunning() {
        Executor first = harness.executor("cell-a");
        ContainerSpec spec = sh("touch /app/ready; exec sleep 120");
        first.run(spec);
        harness.awaitFile("cell-a", spec, "ready");
        awaitState(first, spec, ContainerState.RUNNING);
        harness.abandon(first);

        Executor second = harness.executor("cell-a");
        List<Container> adopted = second.adopt();
        assertThat(adopted).extracting(Container::instanceGuid).containsExactly(spec.instanceGuid());
        assertThat(adopted.get(0).state()).isEqualTo(ContainerState.RUNNING);
        second.stop(spec.instanceGuid(), Duration.ofSeconds(1));
        awaitState(second, spec, ContainerState.STOPPED);
    }

    @Test
    void aRepKilledWithSigkillLeavesItsContainerRunningAndANewRepAdoptsAndForwardsIt() throws Exception {
        Path javaBinary = Path.of(System.getProperty("java.home"), "bin", "java");
        Process rep = new ProcessBuilder(javaBinary.toString(), "-cp", System.getProperty("java.class.path"),
                ContainerRepMain.class.getName(), tmp.toString(), harness.properties.rootfsDir().toString(),
                harness.cgroupRoot, "cell-k").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String[] running;
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(rep.getInputStream()))) {
            String line;
            do {
                line = lines.readLine();
            } while (line != null && !line.startsWith("RUNNING "));
            assertThat(line).as("the other rep's container runs").isNotNull();
            running = line.split(" ");
        } finally {
            rep.destroyForcibly();
        }
        assertThat(rep.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(rep.exitValue()).as("killed by SIGKILL").isEqualTo(137);

        Executor adopter = harness.executor("cell-k");
        List<Container> adopted = adopter.adopt();
        assertThat(adopted).extracting(Container::instanceGuid).containsExactly(running[1]);
        assertThat(adopted.get(0).state()).isEqualTo(ContainerState.RUNNING);
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + running[2]
                + "/index.html").toURL().openConnection();
        assertThat(connection.getResponseCode()).as("its host port forwarded again").isEqualTo(200);
        assertThat(new String(connection.getInputStream().readAllBytes()).strip()).isEqualTo(running[1]);
        adopter.stop(running[1], Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(30)).until(() -> adopter.container(running[1]).map(Container::state)
                .orElse(null) == ContainerState.STOPPED);
    }

    @Test
    void aTasksStepsRunInOneContainerAndItsResultFileIsReadFromInside() {
        Executor executor = harness.executor("cell-a.tasks");
        Action steps = Action.inSerial(List.of(
                new Action(new RunAction("sh", List.of("-c", "hostname > /tmp/step-one"), null, List.of(), null)),
                new Action(new RunAction("sh", List.of("-c", "cat /tmp/step-one > /app/result.txt"), null, List.of(),
                        null))));
        ContainerSpec spec = ContainerHarness.spec(steps, "preloaded:host", List.of(), 0, 0, null);
        executor.run(spec);
        Container ended = awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(RunOnce.succeeded(ended)).as(ended.reason()).isTrue();
        assertThat(executor.readFile(spec.instanceGuid(), "result.txt", RunOnce.MAX_RESULT_BYTES))
                .contains(spec.instanceGuid() + "\n");
    }

    @Test
    void preloadedBookwormRunsAProgramTheHostDoesNotHave() throws Exception {
        assertThat(Path.of("/usr/bin/hello")).as("a program the host does not have").doesNotExist();
        ContainerHarness.requireRootfs("bookworm", harness.properties.rootfsDir());
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                "(hello; cat /etc/debian_version) > /app/out.tmp && mv /app/out.tmp /app/out; exec sleep 60"),
                null, List.of(), null)), "preloaded:bookworm", List.of(), 0, 0, null);
        executor.run(spec);
        assertThat(harness.awaitFile("cell-a", spec, "out")).startsWith("Hello, world!\n12.");
    }

    @Test
    void anOciImageLayoutRunsInItsContainer() throws Exception {
        byte[] program = Files.readAllBytes(Path.of("/usr/bin/tini-static"));
        byte[] base = OciLayouts.gzip(OciLayouts.tar(List.of(OciLayouts.Entry.dir("bin"),
                OciLayouts.Entry.file("bin/app", program, 0755),
                OciLayouts.Entry.file("etc/marker", tmp.toString().getBytes(), 0644))));
        Path layout = tmp.resolve("image");
        String digest = OciLayouts.write(layout, List.of(base), List.of(true));
        Path unpacked = harness.properties.rootfsDir().resolve(".oci").resolve(digest.replace(':', '-'));
        try {
            Executor executor = harness.executor("cell-a");
            ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("/bin/app", List.of("--version"),
                    null, List.of(), null)), "oci://" + layout, List.of(), 0, 0, null);
            executor.run(spec);
            assertThat(awaitState(executor, spec, ContainerState.CRASHED).reason()).isEqualTo(RunOnce.SUCCEEDED);
            await().atMost(Duration.ofSeconds(10)).until(() -> executor.log(spec.instanceGuid()).orElseThrow()
                    .tail(50, EnumSet.of(LogSource.STDOUT)).stream()
                    .anyMatch(line -> line.text().contains("tini version")));
        } finally {
            OciImages.delete(unpacked);
        }
    }

    @Test
    void aDiskMbOverrunIsRefusedInAppAndEverywhereElse() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("sh", List.of("-c",
                "dd if=/dev/zero of=/app/big bs=1M count=40 2>/dev/null; echo app=$?; rm -f /app/big; "
                        + "dd if=/dev/zero of=/var/big bs=1M count=40 2>/dev/null; echo var=$?; rm -f /var/big; "
                        + "dd if=/dev/zero of=/tmp/small bs=1M count=4 2>/dev/null; echo small=$?; "
                        + "ls -a /app | tr '\\n' ' '; echo"),
                null, List.of(), null)), "preloaded:host", List.of(), 0, 24, null);
        executor.run(spec);
        assertThat(awaitState(executor, spec, ContainerState.CRASHED).reason()).isEqualTo(RunOnce.SUCCEEDED);
        await().atMost(Duration.ofSeconds(10)).until(() -> executor.log(spec.instanceGuid()).orElseThrow()
                .tail(50, EnumSet.of(LogSource.STDOUT)).stream().anyMatch(line -> line.text().startsWith(". ")));
        assertThat(executor.log(spec.instanceGuid()).orElseThrow().tail(50, EnumSet.of(LogSource.STDOUT)))
                .extracting(line -> line.text().strip())
                .containsSubsequence("app=1", "var=1", "small=0", ". .. .drover-layer");
    }

    @Test
    void aDownloadLandsInAppAndBelongsToTheInstancesUser() throws Exception {
        byte[] archive = OciLayouts.gzip(OciLayouts.tar(List.of(OciLayouts.Entry.dir("bin"),
                OciLayouts.Entry.file("bin/serve", "#!/bin/sh\necho served > /app/site/bin/served\n".getBytes(), 0755))));
        Path artifact = tmp.resolve("site.tgz");
        Files.write(artifact, archive);
        Action steps = Action.inSerial(List.of(Action.downloading("file://" + artifact, "site", null),
                new Action(new RunAction("site/bin/serve", List.of(), null, List.of(), null))));
        Executor executor = harness.executor("cell-a.tasks");
        ContainerSpec spec = ContainerHarness.spec(steps, "preloaded:host", List.of(), 0, 32, null);
        executor.run(spec);
        Container ended = awaitState(executor, spec, ContainerState.CRASHED);
        assertThat(RunOnce.succeeded(ended)).as(ended.reason()).isTrue();
        assertThat(executor.readFile(spec.instanceGuid(), "site/bin/served", 100)).contains("served\n");
    }

    @Test
    void aMissingExecutableFailsToStartWithItsName() {
        Executor executor = harness.executor("cell-a");
        ContainerSpec spec = ContainerHarness.spec(new Action(new RunAction("no-such-program", List.of(), null,
                List.of(), null)), "preloaded:host", List.of(), 0, 0, null);
        executor.run(spec);
        assertThat(awaitState(executor, spec, ContainerState.CRASHED).reason())
                .isEqualTo("failed to start: no executable no-such-program");
        assertThat(Files.exists(harness.runDir.resolve("bundles/cell-a").resolve(spec.instanceGuid()))).isFalse();
    }
}
