package io.drover.bench;

import io.drover.model.cell.Resources;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.ContainerSpec;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.Executor;
import io.drover.rep.executor.container.ContainerProperties;
import io.drover.rep.executor.container.ContainerSandboxes;
import io.drover.rep.executor.process.ProcessExecutorFactory;
import io.drover.rep.executor.process.ProcessExecutorProperties;
import io.drover.rep.executor.process.ProcessExecutorProperties.IsolationSetting;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.util.unit.DataSize;

/**
 * {@code ./drover-bench --containers}: start-to-RUNNING latency of real instances of a small HTTP server (python's
 * http.server, healthy once its http check on the container port answers), one after another, under the process
 * executor and under the container executor (runc, preloaded:host, its own namespaces, a 64 MB disk), and what each
 * start costs the rep in CPU: the rep's JVM, and the helper processes it runs (runc, mount, ip, mkfs), measured from
 * /proc. Then the same number started at once, until all run. Needs root and runc for the container half.
 */
final class ContainerStarts {

    private static final Resources CAPACITY = new Resources(1 << 20, 1 << 20, 1000);

    private final int instances;

    private final Path workDir;

    ContainerStarts(int instances, Path workDir) {
        this.instances = instances;
        this.workDir = workDir;
    }

    List<Figure> run() throws Exception {
        List<Figure> figures = new ArrayList<>();
        figures.addAll(measure("process", null));
        figures.addAll(measure("containers", new ContainerProperties("auto", workDir.resolve("runtime"),
                workDir.resolve("bundles"), Path.of("/var/lib/drover/rootfs"), "2000:2000", "auto",
                "10.253.0.0/16", workDir.resolve("disks"))));
        return figures;
    }

    private List<Figure> measure(String mode, ContainerProperties containers) throws Exception {
        ProcessExecutorProperties properties = new ProcessExecutorProperties(workDir.resolve(mode), "62000-63999",
                Duration.ofSeconds(5), DataSize.ofMegabytes(1), Duration.ofMillis(100), Duration.ofSeconds(30),
                Duration.ofSeconds(1), Duration.ofSeconds(10), List.of("PATH", "LANG"), 4, IsolationSetting.AUTO,
                "drover-bench-" + ProcessHandle.current().pid());
        ProcessExecutorFactory factory = containers == null ? new ProcessExecutorFactory(properties, Clock.systemUTC())
                : new ProcessExecutorFactory(properties, Clock.systemUTC(), new ContainerSandboxes(containers,
                        properties.cgroupRoot()));
        Executor executor = factory.create("bench-" + mode, "127.0.0.1", CAPACITY);
        Map<String, Long> running = new ConcurrentHashMap<>();
        executor.addListener(e -> {
            if (e.container().state() == ContainerState.RUNNING) {
                running.putIfAbsent(e.container().instanceGuid(), System.nanoTime());
            }
        });
        try {
            warmUp(executor, running);
            List<Long> latencies = new ArrayList<>();
            long jvmBefore = jvmCpuNanos();
            long helpersBefore = helperCpuNanos();
            for (int i = 0; i < instances; i++) {
                ContainerSpec spec = spec(i);
                long started = System.nanoTime();
                executor.run(spec);
                awaitRunning(running, List.of(spec), Duration.ofSeconds(60));
                latencies.add(running.get(spec.instanceGuid()) - started);
            }
            double jvmMsPerStart = (jvmCpuNanos() - jvmBefore) / 1e6 / instances;
            double helpersMsPerStart = (helperCpuNanos() - helpersBefore) / 1e6 / instances;
            stopAll(executor);

            List<ContainerSpec> burst = new ArrayList<>();
            for (int i = 0; i < instances; i++) {
                burst.add(spec(i));
            }
            long burstStart = System.nanoTime();
            burst.forEach(executor::run);
            awaitRunning(running, burst, Duration.ofMinutes(5));
            double burstSeconds = (burst.stream().mapToLong(s -> running.get(s.instanceGuid())).max().orElseThrow()
                    - burstStart) / 1e9;
            stopAll(executor);

            latencies.sort(null);
            String figure = String.format("p50 %.0f ms, p99 %.0f ms", percentile(latencies, 50) / 1e6,
                    percentile(latencies, 99) / 1e6);
            return List.of(
                    new Figure("C1 start-to-RUNNING, " + instances + " one by one (" + mode + ")", figure,
                            "report", true, "python3 http.server, http check on its port; executor isolation "
                                    + factory.isolation()),
                    new Figure("C2 rep CPU per start (" + mode + ")", String.format("JVM %.1f ms + helpers %.1f ms",
                            jvmMsPerStart, helpersMsPerStart), "report", true,
                            "helpers: the rep's child processes (runc, mount, ip, mkfs; setsid/prlimit on the host)"),
                    new Figure("C3 " + instances + " at once until all RUNNING (" + mode + ")",
                            String.format("%.1f s", burstSeconds), "report", true, "the same instances in one burst"));
        } finally {
            stopAll(executor);
            executor.close();
            factory.close();
        }
    }

    private void warmUp(Executor executor, Map<String, Long> running) throws InterruptedException {
        List<ContainerSpec> warm = List.of(spec(0), spec(1), spec(2));
        warm.forEach(executor::run);
        awaitRunning(running, warm, Duration.ofSeconds(60));
        stopAll(executor);
    }

    /** python's http.server on $PORT (the host port on the host, the container port in a container). */
    private static ContainerSpec spec(int index) {
        DesiredLrpDefinition definition = new DesiredLrpDefinition("bench-" + UUID.randomUUID(), "bench",
                "preloaded:host", 1, new Action(new RunAction("sh", List.of("-c",
                        "exec python3 -m http.server --bind 0.0.0.0 $PORT"), null, List.of(), null)), null,
                new CheckDefinition(List.of(new Check(null, new CheckDefinition.HttpCheck(8080, "/", 1000)))), 60,
                List.of(), List.of(8080), 128, 64, 0, 0, List.of(), null, null, null, null);
        return new ContainerSpec(ActualLrpKey.of(definition.processGuid(), index), "bench-" + UUID.randomUUID(),
                definition);
    }

    private static void awaitRunning(Map<String, Long> running, List<ContainerSpec> specs, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!specs.stream().allMatch(s -> running.containsKey(s.instanceGuid()))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("instances did not all run within " + timeout);
            }
            Thread.sleep(2);
        }
    }

    private static void stopAll(Executor executor) throws InterruptedException {
        executor.containers().forEach(c -> executor.stop(c.instanceGuid(), Duration.ofSeconds(5)));
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!executor.containers().stream().allMatch(c -> c.state() == ContainerState.STOPPED
                || c.state() == ContainerState.CRASHED)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("instances did not all stop");
            }
            Thread.sleep(20);
        }
        executor.containers().forEach(c -> executor.forget(c.instanceGuid()));
    }

    private static double percentile(List<Long> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static long jvmCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * CPU of the rep's helper processes: those it has waited for (cutime + cstime of /proc/self/stat) and the runtime
     * processes still alive beside their containers ({@code runc run} holds each container until it exits).
     */
    private static long helperCpuNanos() throws IOException {
        long ticks = statField(Path.of("/proc/self/stat"), 16) + statField(Path.of("/proc/self/stat"), 17);
        for (ProcessHandle child : ProcessHandle.current().children().toList()) {
            Path stat = Path.of("/proc", Long.toString(child.pid()), "stat");
            try {
                String comm = Files.readString(Path.of("/proc", Long.toString(child.pid()), "comm")).strip();
                if (comm.startsWith("runc")) {
                    ticks += statField(stat, 14) + statField(stat, 15);
                }
            } catch (IOException e) {
                // gone meanwhile: counted in cutime once waited for
            }
        }
        return ticks * 10_000_000L; // USER_HZ is 100 on Linux
    }

    /** Field {@code number} of a /proc stat line, numbered as proc(5) does (utime is 14, cutime 16). */
    private static long statField(Path stat, int number) throws IOException {
        String line = Files.readString(stat);
        String[] rest = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[number - 3]);
    }
}
