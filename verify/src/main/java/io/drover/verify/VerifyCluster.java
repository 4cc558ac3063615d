package io.drover.verify;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.LocalClusterSettings;
import io.drover.cluster.ProcessCluster;
import io.drover.cluster.RunningCluster;
import io.drover.rep.executor.process.cgroup.CgroupDetection;
import io.drover.verify.fault.AdminPortDrains;
import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.Drains;
import io.drover.verify.fault.FaultyConsumerInterceptor;
import io.drover.verify.fault.LocalControl;
import io.drover.verify.fault.ProcessControl;
import io.drover.verify.history.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The checker's local cluster: three process cells in one JVM (or, with {@code --separate-jvms}, each service in a JVM
 * of its own, with a standby converger and auctioneer so that a frozen leader has a successor), with clocks short
 * enough that presence loss,
 * convergence and rollouts show within seconds (the values the checks' allowances are computed from), reps that stop
 * without a word (shutdown {@code keep}, so stopping one is what SIGKILL of the rep leaves behind), message faults at
 * every consumer, and cgroups under a root of this JVM's own. Its workloads are killed when it closes.
 */
final class VerifyCluster implements AutoCloseable {

    static final Entry.Timings TIMINGS = new Entry.Timings(10, 3, 2, 90, 1);
    static final String USER = "verify";

    private final RunningCluster cluster;
    private final ClusterControl control;
    private final Drains drains;
    private final Path dataDir;
    private final String marker;
    private final String cgroupRoot = "drover-verify-" + ProcessHandle.current().pid();

    private VerifyCluster(RunningCluster cluster, ClusterControl control, Drains drains, Path dataDir, String marker) {
        this.cluster = cluster;
        this.control = control;
        this.drains = drains;
        this.dataDir = dataDir;
        this.marker = marker;
    }

    static VerifyCluster start(Path dataDir, String password, String marker, long seed, boolean separateJvms,
            Path log) {
        // cells on host ports of their own, clear of the end-to-end tests' 61000-63999 should a build run beside
        System.setProperty("drover.local.host-port-base", System.getProperty("drover.local.host-port-base", "64000"));
        FaultyConsumerInterceptor.seed(seed);
        FaultyConsumerInterceptor.set(0, 0, 0);
        Map<String, String> p = new HashMap<>();
        p.put("drover.rep.timing.heartbeat-interval", "1s");
        p.put("drover.rep.timing.presence-ttl", (int) TIMINGS.presenceTtl() + "s");
        p.put("drover.rep.timing.sync-interval", (int) TIMINGS.syncInterval() + "s");
        p.put("drover.rep.timing.stop-grace", (int) TIMINGS.stopGrace() + "s");
        p.put("drover.rep.timing.evacuating-sync-interval", (int) TIMINGS.evacuatingSyncInterval() + "s");
        p.put("drover.rep.usage.interval", "5s");
        p.put("drover.rep.shutdown", "keep");
        p.put("drover.rep.process.cgroup-root", "drover-verify-" + ProcessHandle.current().pid());
        p.put("drover.converger.interval", "2s");
        p.put("drover.converger.desired-change-delay", "200ms");
        p.put("drover.converger.cell-watch-interval", "500ms");
        p.put("drover.converger.leader-ttl", "3s");
        p.put("drover.converger.cell-grace-on-election", "4s");
        p.put("drover.converger.stale-unclaimed-after", "5s");
        p.put("drover.converger.tasks.callback-interval", "300ms");
        p.put("drover.converger.tasks.callback-first-backoff", "200ms");
        p.put("drover.converger.tasks.callback-max-backoff", "1s");
        // a callback whose answer could not be recorded (PostgreSQL restarting) leaves its task RESOLVING until this
        // passes; the default 2 min is longer than the run's convergence allowance (above the 10 s attempt timeout)
        p.put("drover.converger.tasks.resolving-timeout", "20s");
        // the checker's callback server listens on the loopback interface, which callbacks may reach only when named
        p.put("drover.receptor.tasks.callback-allowed-hosts", "127.0.0.1");
        p.put("drover.auctioneer.leader-ttl", "3s");
        p.put("drover.deployer.interval", "500ms");
        if (!separateJvms) {
            p.put("spring.kafka.consumer.properties.interceptor.classes", FaultyConsumerInterceptor.class.getName());
        }
        // a broker outage must outlast what the producers buffer, or it tests nothing
        p.put("spring.kafka.producer.properties.request.timeout.ms", "10000");
        p.put("spring.kafka.producer.properties.delivery.timeout.ms", "15000");
        p.put("spring.kafka.producer.properties.max.block.ms", "5000");
        p.put("spring.kafka.admin.operation-timeout", "3s");
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 3, 0, USER, password, p);
        if (separateJvms) {
            ProcessCluster cluster = ProcessCluster.start(settings);
            try {
                cluster.startAnother("converger-service", "converger-service-standby");
                cluster.startAnother("auctioneer-service", "auctioneer-service-standby");
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            ClusterControl control = new ProcessControl(cluster, dataDir.resolve("logs"),
                    List.of("cell-z1", "cell-z2", "cell-z3"));
            return new VerifyCluster(cluster, control, new NoDrains(), dataDir, marker);
        }
        LocalCluster cluster = LocalCluster.start(settings);
        return new VerifyCluster(cluster, new LocalControl(cluster, log), new AdminPortDrains(cluster), dataDir, marker);
    }

    RunningCluster cluster() {
        return cluster;
    }

    ClusterControl control() {
        return control;
    }

    Drains drains() {
        return drains;
    }

    /** Drains need the reps' admin ports, which child JVMs do not tell: none there. */
    private static final class NoDrains implements Drains {
        @Override
        public boolean drain(int rep, String cell) {
            return false;
        }

        @Override
        public void undrain(int rep, String cell) {
        }
    }

    Path dataDir() {
        return dataDir;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            // shutdown keep leaves the workloads running by design: the run's own processes go here
            ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(marker))
                    .forEach(ProcessHandle::destroyForcibly);
            removeCgroups();
        }
    }

    private void removeCgroups() {
        for (int attempt = 0; attempt < 20 && !CgroupDetection.existing(cgroupRoot).isEmpty(); attempt++) {
            for (Path base : CgroupDetection.existing(cgroupRoot)) {
                try (Stream<Path> dirs = Files.walk(base)) {
                    dirs.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).forEach(dir -> {
                        try {
                            Files.deleteIfExists(dir);
                        } catch (IOException e) {
                            // a process is still in it: the next attempt
                        }
                    });
                } catch (IOException | UncheckedIOException e) {
                    // removed meanwhile
                }
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
