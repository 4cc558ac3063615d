package io.drover.rep.executor.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Resources;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ContainerEvent;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import io.drover.rep.executor.process.cgroup.Cgroups;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.springframework.util.unit.DataSize;

/**
 * A process executor over a temporary work dir with test-speed intervals, the events it published, and a cleanup
 * that kills whatever a test left running (every executor it made, adopted ones included) and checks that no cgroup of
 * its cells is left. Cgroups live under a root of this JVM's own ({@link #CGROUP_ROOT}), so parallel builds on one
 * machine never see each other's.
 */
final class ExecutorHarness implements AutoCloseable {

    static final Resources CAPACITY = new Resources(8192, 8192, 20);

    static final String CGROUP_ROOT = "drover-test-" + ProcessHandle.current().pid();

    final Path workDir;

    final List<ContainerEvent> events = new CopyOnWriteArrayList<>();

    private final List<ProcessExecutorFactory> factories = new ArrayList<>();

    private final List<ProcessExecutor> executors = new ArrayList<>();

    private final Set<String> cells = new HashSet<>();

    ExecutorHarness(Path workDir) {
        this.workDir = workDir;
    }

    static ProcessExecutorProperties properties(Path workDir, DataSize logCap) {
        return properties(workDir, logCap, IsolationSetting.AUTO);
    }

    static ProcessExecutorProperties properties(Path workDir, DataSize logCap, IsolationSetting isolation) {
        return new ProcessExecutorProperties(workDir, "62000-62999", Duration.ofSeconds(10), logCap,
                Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofMillis(200), Duration.ofSeconds(5),
                List.of("PATH", "HOME", "LANG"), 2, isolation, CGROUP_ROOT);
    }

    ProcessExecutor executor() {
        return executor(properties(workDir, DataSize.ofMegabytes(1)));
    }

    ProcessExecutor executor(ProcessExecutorProperties properties) {
        return cells(properties, "cell-a").get(0);
    }

    /** Executors for several cells of one rep process: one factory, so shared threads and host ports. */
    List<ProcessExecutor> cells(ProcessExecutorProperties properties, String... cellIds) {
        ProcessExecutorFactory factory = new ProcessExecutorFactory(properties, Clock.systemUTC());
        factories.add(factory);
        List<ProcessExecutor> made = new ArrayList<>();
        for (String cellId : cellIds) {
            ProcessExecutor executor = factory.create(cellId, "10.0.0.5", CAPACITY);
            cells.add(cellId);
            executor.addListener(events::add);
            made.add(executor);
        }
        executors.addAll(made);
        return made;
    }

    Container awaitState(ProcessExecutor executor, ContainerSpec spec, ContainerState state) {
        await().atMost(Duration.ofSeconds(15)).until(
                () -> executor.container(spec.instanceGuid()).map(Container::state).orElse(null) == state);
        return executor.container(spec.instanceGuid()).orElseThrow();
    }

    /**
     * Blocks until the process has written {@code file} in its working directory and returns its content; scripts
     * write to a temporary name and rename, so the file is complete once it exists.
     */
    String awaitFile(ContainerSpec spec, String file) {
        Path path = InstanceDir.of(workDir.resolve("cell-a"), spec.instanceGuid()).app().resolve(file);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(path));
        return uncheckedRead(path);
    }

    /** Closes an executor the way a rep restart does: threads gone, processes left running for adoption. */
    void abandon(ProcessExecutor executor) {
        executor.close();
        executors.remove(executor);
    }

    /** The cgroup hierarchy of this harness's executors; empty where cgroups cannot be used (or are not asked for). */
    Optional<Cgroups> cgroups() {
        return factories.stream().map(ProcessExecutorFactory::cgroups).flatMap(Optional::stream).findFirst();
    }

    InstanceDir dir(ContainerSpec spec) {
        return InstanceDir.of(workDir.resolve("cell-a"), spec.instanceGuid());
    }

    static boolean gone(long pid) {
        return ProcTable.stat(pid).map(stat -> !stat.alive()).orElse(true);
    }

    @Override
    public void close() {
        for (ProcessExecutor executor : executors) {
            executor.containers().forEach(c -> executor.stop(c.instanceGuid(), Duration.ZERO));
        }
        for (ProcessExecutor executor : executors) {
            await().atMost(Duration.ofSeconds(10)).until(() -> executor.containers().stream()
                    .allMatch(c -> c.state() == ContainerState.STOPPED || c.state() == ContainerState.CRASHED));
            executor.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> processesWorkingUnder(workDir).isEmpty());
        List<String> leftovers = cgroups().map(this::removeLeftovers).orElse(List.of());
        factories.forEach(ProcessExecutorFactory::close);
        assertThat(leftovers).as("cgroups left behind").isEmpty();
    }

    /**
     * Every instance's cgroup should have gone with its instance: any left is killed and removed (so that one failing
     * test does not leave the machine dirty) and named. The cells' own go too; the base goes with the last factory.
     */
    private List<String> removeLeftovers(Cgroups cgroups) {
        List<String> leftovers = new ArrayList<>();
        for (String cell : cells) {
            List<String> left = cgroups.instanceNames(cell);
            left.forEach(name -> cgroups.instance(cell, name).kill());
            await().atMost(Duration.ofSeconds(5)).until(() -> left.stream()
                    .allMatch(name -> cgroups.instance(cell, name).pids().isEmpty()));
            left.forEach(name -> cgroups.instance(cell, name).remove());
            left.forEach(name -> leftovers.add(cell + "/" + name));
            if (!cgroups.removeCellIfEmpty(cell)) {
                leftovers.add(cell);
            }
        }
        return leftovers;
    }

    /** Live processes whose working directory lies in {@code root}: what a test left behind if not empty. */
    static List<Long> processesWorkingUnder(Path root) {
        try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
            return entries.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return Files.readSymbolicLink(p.resolve("cwd")).startsWith(root);
                        } catch (IOException | SecurityException e) {
                            return false;
                        }
                    }).map(p -> Long.parseLong(p.getFileName().toString())).filter(pid -> !gone(pid)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String uncheckedRead(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
