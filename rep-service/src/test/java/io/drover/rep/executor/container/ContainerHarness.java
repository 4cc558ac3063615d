package io.drover.rep.executor.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.process.ProcessExecutorFactory;
import io.drover.rep.executor.process.ProcessExecutorProperties;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.springframework.util.unit.DataSize;

/**
 * Container executors over a temporary work dir, with a runtime installed by {@code .ci/install-runc} where it can be
 * (as root, through apt) and the test skipped loudly where it cannot. Cleanup stops what a test left and checks that
 * no bundle, mount or runtime container of its cells is left.
 */
public final class ContainerHarness implements AutoCloseable {

    static final Resources CAPACITY = new Resources(16384, 65536, 200);

    static final String CGROUP_ROOT = "drover-ctest-" + ProcessHandle.current().pid();

    final Path workDir;

    final Path runDir;

    final ContainerProperties properties;

    private final List<ProcessExecutorFactory> factories = new ArrayList<>();

    private final List<Executor> executors = new ArrayList<>();

    final String cgroupRoot;

    ContainerHarness(Path workDir, Path rootfsDir) {
        this(workDir, rootfsDir, CGROUP_ROOT);
    }

    /** A harness over the dirs and cgroup root of another (a rep in another JVM, as a restarted rep finds them). */
    ContainerHarness(Path workDir, Path rootfsDir, String cgroupRoot) {
        this.cgroupRoot = cgroupRoot;
        this.workDir = workDir;
        this.runDir = workDir.resolve("run");
        this.properties = new ContainerProperties("auto", runDir.resolve("runtime"), runDir.resolve("bundles"),
                rootfsDir, "2000:2000", "auto", "10.254.0.0/16", workDir.resolve("disks"));
    }

    /** Installs runc (and tini) where it can; skips the calling test class with the reason where it cannot. */
    public static void requireRuntime() {
        Path script = repositoryRoot().resolve(".ci/install-runc");
        String output;
        int status;
        try {
            Process process = new ProcessBuilder(script.toString()).redirectErrorStream(true).start();
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            status = process.waitFor(15, TimeUnit.MINUTES) ? process.exitValue() : -1;
        } catch (IOException e) {
            output = e.getMessage();
            status = -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (status != 0) {
            System.err.println("SKIPPED container executor tests: " + output);
        }
        Assumptions.assumeTrue(status == 0, () -> "SKIPPED container executor tests: no OCI runtime here");
    }

    /** Makes (or finds) the debootstrap tree preloaded:NAME with ./drover-rootfs; skips loudly where it cannot. */
    static void requireRootfs(String name, Path rootfsDir) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(repositoryRoot().resolve("drover-rootfs").toString(), name,
                rootfsDir.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        boolean made = process.waitFor(10, TimeUnit.MINUTES) && process.exitValue() == 0;
        if (!made) {
            System.err.println("SKIPPED preloaded:" + name + ": " + output);
        }
        Assumptions.assumeTrue(made, () -> "SKIPPED preloaded:" + name + ": " + output);
    }

    static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve(".ci/install-runc"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no .ci/install-runc above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    ProcessExecutorProperties processProperties() {
        return new ProcessExecutorProperties(workDir.resolve("cells"), "63000-63999", Duration.ofSeconds(10),
                DataSize.ofMegabytes(1), Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(200),
                Duration.ofSeconds(5), List.of("PATH", "HOME", "LANG"), 4, IsolationSetting.AUTO, cgroupRoot);
    }

    /** A fresh factory (a rep process) and its executor of {@code cell}. */
    Executor executor(String cell) {
        ProcessExecutorFactory factory = new ProcessExecutorFactory(processProperties(), Clock.systemUTC(),
                new ContainerSandboxes(properties, cgroupRoot));
        assertThat(factory.isolation()).as("isolation of a root machine with runc").isEqualTo(CellIsolation.CONTAINERS);
        factories.add(factory);
        Executor executor = factory.create(cell, "127.0.0.1", CAPACITY);
        executors.add(executor);
        return executor;
    }

    /** Closes an executor as a killed rep leaves it: threads gone, containers running. */
    void abandon(Executor executor) {
        executor.close();
        executors.remove(executor);
    }

    static Container awaitState(Executor executor, ContainerSpec spec, ContainerState state) {
        await().atMost(Duration.ofSeconds(30)).until(
                () -> executor.container(spec.instanceGuid()).map(Container::state).orElse(null) == state);
        return executor.container(spec.instanceGuid()).orElseThrow();
    }

    /** A file the instance wrote in its app directory, once it is there (scripts write and rename). */
    String awaitFile(String cell, ContainerSpec spec, String name) {
        Path path = workDir.resolve("cells").resolve(cell).resolve(spec.instanceGuid()).resolve("app").resolve(name);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(path));
        try {
            return Files.readString(path).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ContainerSpec sh(String script) {
        return spec(new Action(new RunAction("sh", List.of("-c", script), null, List.of(), null)), "preloaded:host",
                List.of(), 0, 0, null);
    }

    static ContainerSpec spec(Action action, String rootfs, List<Integer> ports, int memoryMb, int diskMb,
            CheckDefinition checks) {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("app-" + UUID.randomUUID(), "test-domain",
                rootfs, 1, action, null, checks, 0, List.of(), ports, memoryMb, diskMb, 0, 0, List.of(), null, null,
                null, null);
        return new ContainerSpec(ActualLrpKey.of(definition.processGuid(), 0), "guid-" + UUID.randomUUID(),
                definition);
    }

    @Override
    public void close() throws IOException {
        for (Executor executor : executors) {
            executor.containers().forEach(c -> executor.stop(c.instanceGuid(), Duration.ZERO));
        }
        for (Executor executor : executors) {
            await().atMost(Duration.ofSeconds(30)).until(() -> executor.containers().stream()
                    .allMatch(c -> c.state() == ContainerState.STOPPED || c.state() == ContainerState.CRASHED));
            executor.containers().forEach(c -> executor.forget(c.instanceGuid()));
            executor.close();
        }
        factories.forEach(ProcessExecutorFactory::close);
        try (var hierarchies = Files.list(Path.of("/sys/fs/cgroup"))) {
            assertThat(hierarchies.flatMap(h -> {
                try (var dirs = Files.walk(h, 3)) {
                    return dirs.filter(d -> d.getFileName().toString().equals(cgroupRoot)).toList().stream();
                } catch (IOException e) {
                    return java.util.stream.Stream.empty();
                }
            })).as("cgroups left behind in any hierarchy").isEmpty();
        }
        String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
        assertThat(mounts).as("mounts left behind").doesNotContain(workDir.toString());
        try (var namespaces = Files.list(Path.of("/run/netns"))) {
            assertThat(namespaces.map(p -> p.getFileName().toString()))
                    .as("network namespaces left behind").noneMatch(name -> name.startsWith("drover-cell-a"));
        } catch (java.nio.file.NoSuchFileException e) {
            // none was ever made
        }
    }
}
