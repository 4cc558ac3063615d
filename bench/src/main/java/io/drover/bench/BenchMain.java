package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.LocalClusterSettings;
import io.drover.cluster.ProcessCluster;
import io.drover.cluster.RunningCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.springframework.util.FileSystemUtils;

/**
 * {@code ./drover-bench [--quick | --million] [--separate-jvms] [--tasks]} (or {@code --cli}: the command line's start
 * alone, see {@link #cli}; {@code --containers}: the container executor against the process executor;
 * {@code --autoscale}: P9 alone, see {@link #autoscale}; {@code --router}: P8 alone, see
 * {@link RouterBench}): starts the local cluster with simulated cells (1,000 cells
 * for the full run, 100 for {@code --quick}, 10,000 for {@code --million}: see {@link Scale}), warms it up (see
 * {@link Warmup}), runs P0-P6 of SPEC 11 and P7 (a rollout of 1,000 LRPs, SPEC 14; 10,000 in a million) and prints one
 * table, also written as JSON to
 * {@code bench/results/}. With {@code --separate-jvms} every service runs in a JVM of its own, so P4 measures the
 * receptor's whole process and P5 each service's heap; P2 and P3 need the services' insides and run only in one JVM.
 * While it runs it prints one line per step and progress on long ones ({@link Console}); the cluster's logs go to
 * {@code bench/results/logs-MODE-TIME/drover.log}.
 */
public final class BenchMain {

    /**
     * Rounds of the warm-up ({@link Warmup}): with two C2 compiler threads ({@code ./drover-bench}), four rounds left 4 %
     * of P1's CPU samples in C1's profiling code on this 2-core machine, one round 20 % and more.
     */
    static final int WARMUP_ROUNDS = 4;
    /** P6's warm rounds: each as many tasks as P6 (see {@link TaskThroughput}). */
    static final int TASK_WARM_ROUNDS = 3;
    private static final Path RESULTS = Path.of("bench", "results");

    private BenchMain() {
    }

    /** {@code --containers}: the container executor against the process executor, on real processes (no cluster). */
    private static List<Figure> containers(int instances) throws Exception {
        Path workDir = Files.createTempDirectory("drover-bench-containers");
        Console.step("starting %d instances under each executor, one by one, then all at once".formatted(instances));
        return new ContainerStarts(instances, workDir).run();
    }

    /**
     * {@code --autoscale}: P9 alone (SPEC 17), on a cluster of its own: 1,000 autoscaled LRPs on 100 simulated cells, a
     * load step up and back down ({@link AutoscaleAtScale}). Apart from the full run, which it would lengthen by some
     * four minutes of waiting for the autoscaler's warm-ups and its scale-down delay.
     */
    private static List<Figure> autoscale() throws Exception {
        Path dataDir = Files.createTempDirectory("drover-bench-autoscale");
        Map<String, String> properties = new HashMap<>(BenchSettings.clusterProperties(100));
        properties.putAll(AutoscaleAtScale.clusterProperties());
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 0, 100, "bench", "bench-password",
                properties);
        Console.step("starting a cluster of 100 simulated cells");
        try (LocalCluster cluster = LocalCluster.start(settings, Console::detail);
             StoppedOnExit stoppedOnExit = new StoppedOnExit(cluster, dataDir);
             Database db = new Database(cluster.jdbcUrl(), "postgres", "postgres")) {
            BenchSettings.awaitCells(db, 100, Duration.ofMinutes(2));
            ReceptorClient client = new ReceptorClient(cluster.receptorUrl(), "bench", "bench-password", 64);
            Console.step("P9: 1,000 autoscaled LRPs, a load step up and back down");
            List<Figure> figures = Console.taken(new AutoscaleAtScale(client, db, cluster).run(1_000, 32,
                    Duration.ofMinutes(5)));
            Console.step("stopping the cluster");
            return figures;
        } finally {
            deleteData(dataDir);
        }
    }

    /**
     * {@code --router}: P8 alone (SPEC 16), its own cluster of separate JVMs with the router in one of them: 1,000
     * routes of 10 instances (100 with {@code --quick}). Kept out of the full run, which it would lengthen by minutes.
     */
    private static List<Figure> router(boolean quick) throws Exception {
        return new RouterBench(quick ? 100 : 1_000, 10).run();
    }

    public static void main(String[] args) throws Exception {
        Set<String> options = Set.of(args);
        Scale scale = Scale.of(options);
        boolean separate = options.contains("--separate-jvms");
        // --tasks: P6 alone (with its warm rounds), to look at the task path without the rest of the run
        boolean onlyTasks = options.contains("--tasks");
        String mode = options.contains("--containers") ? "containers" : options.contains("--cli") ? "cli"
                : options.contains("--autoscale") ? "autoscale"
                : options.contains("--router") ? (options.contains("--quick") ? "router-quick" : "router")
                : scale.name() + (separate ? "-separate-jvms" : "") + (onlyTasks ? "-tasks" : "");
        String stamp = mode + "-" + Instant.now().toString().replace(':', '-');
        Path logs = Console.logsToFile(RESULTS.resolve("logs-" + stamp));
        Console.step("drover-bench " + mode + ": the cluster's logs go to " + logs);
        List<Figure> figures = switch (mode) {
            case "containers" -> containers(options.contains("--quick") ? 20 : 100);
            case "cli" -> cli();
            case "autoscale" -> autoscale();
            case "router", "router-quick" -> router(mode.equals("router-quick"));
            default -> run(scale, separate, onlyTasks, stamp);
        };
        System.out.println();
        System.out.print(Report.table(figures));
        System.out.println("results: " + Report.writeJson(RESULTS, mode, figures));
        System.exit(0);
    }

    /** The scenarios on a cluster of simulated cells; the cluster is stopped and its data deleted at the end. */
    private static List<Figure> run(Scale scale, boolean separate, boolean onlyTasks, String stamp) throws Exception {
        Profile.prime();
        Path dataDir = Files.createTempDirectory("drover-bench");
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 0, scale.cells(), "bench",
                "bench-password", BenchSettings.clusterProperties(scale.cells()));
        List<Figure> figures = new ArrayList<>();
        Console.step("starting the cluster: PostgreSQL, Kafka, four services and %,d simulated cells%s"
                .formatted(scale.cells(), separate ? ", each service in a JVM of its own" : ""));
        // the cluster's PostgreSQL, broker and cells write about 2 GB here in a full run: gone when the run ends
        try (RunningCluster cluster = separate ? ProcessCluster.start(settings)
                : LocalCluster.start(settings, Console::detail);
             StoppedOnExit stoppedOnExit = new StoppedOnExit(cluster, dataDir);
             Database db = new Database(cluster.jdbcUrl(), "postgres", "postgres")) {
            CpuAccount.leaveOutPostgresBackend(db.backendPid());
            CpuAccount.onlyPostgresServerOf(db.backendPid());
            CpuAccount.namePostgresProcesses(db::processRoles);
            if (cluster instanceof ProcessCluster processes) {
                CpuAccount.countServiceProcesses(processes.services().stream().map(s -> s.process().pid()).toList());
                for (var service : processes.services()) {
                    RemoteProfile.prime(service.process().pid());
                }
            }
            ReceptorClient client = new ReceptorClient(cluster.receptorUrl(), "bench", "bench-password", 64);
            // P3's victim: one more simulated cell, in a rep of its own so that it can die alone.
            int victim = cluster instanceof LocalCluster local ? local.addCell() : -1;
            BenchSettings.awaitCells(db, scale.cells() + (victim >= 0 ? 1 : 0), scale.longWait());
            String jfr = stamp + ".jfr";
            Console.step("measuring what this machine's PostgreSQL writes alone (5 s)");
            double postgresLimit = new PostgresLimit(cluster.jdbcUrl(), "postgres", "postgres")
                    .rowsPerSecond(Duration.ofSeconds(5));
            Console.detail("%,.0f rows/s of batched versioned updates".formatted(postgresLimit));
            if (!onlyTasks) {
                figures.add(Console.taken(new Warmup(client, db).run(WARMUP_ROUNDS, scale.warmLrps(), 1, 32,
                        Duration.ofMinutes(5))));
                figures.addAll(Console.taken(new DesireAtScale(client, db, cluster).run(scale, 32,
                        RESULTS.resolve("p1-" + jfr), postgresLimit)));
                figures.addAll(BenchSettings.clusterScenarios(cluster, db, victim));
                Console.step("P4: %d requests/s for %d s of warm-up, %d s measured, then reads and updates alone"
                        .formatted(500, 10, scale.loadDuration().toSeconds()));
                figures.addAll(Console.taken(new ReceptorLoad(client, BenchSettings.receptor(cluster)).run(
                        DesireAtScale.guids(scale.lrps()), 500, Duration.ofSeconds(10), scale.loadDuration(),
                        RESULTS.resolve("p4-" + jfr))));
                Console.step("P5: the heap after a full GC, and what PostgreSQL holds per instance");
                figures.addAll(Console.taken(cluster instanceof ProcessCluster processes ? ServiceHeaps.run(processes)
                        : List.of(new HeapUsage().run(4))));
                figures.add(Console.taken(DatabaseSize.run(db)));
                Console.step("D: the dashboard's overview, cells and LRP pages over what P1 left");
                figures.add(Console.taken(DashboardPages.run(client)));
            }
            figures.addAll(Console.taken(new TaskThroughput(client, db).run(scale.tasks(), scale.warmTasks(), 32,
                    TASK_WARM_ROUNDS, scale.longWait(), RESULTS.resolve("p6-" + jfr))));
            if (!onlyTasks) {
                figures.add(Console.taken(new RolloutAtScale(client, db).run(DesireAtScale.guids(
                        scale.rolloutLrps()), scale.instances(), 32, scale.longWait().multipliedBy(2))));
                if (cluster instanceof LocalCluster local) {
                    // last: the receptor comes back on another port, which the clients above do not know
                    Console.step("R: the control plane stops and starts again over what the run left");
                    figures.add(Console.taken(new ControlPlaneRestart(local, db).run(Duration.ofMinutes(3))));
                }
            }
            Console.step("stopping the cluster");
        } finally {
            deleteData(dataDir);
        }
        return figures;
    }

    /**
     * How big a run is: its simulated cells, P1's LRPs x instances and the time its figure is taken at, P1's and P0's
     * targets (P0's for Drover and for the whole machine), P4's measured load, P6's tasks and P7's LRPs. The warm-up rounds and P6's warm rounds are the full run's
     * at most ({@code warmLrps}, {@code warmTasks}): they are there for the JIT, which a tenth of a million's requests
     * warms as well as all of them.
     */
    record Scale(String name, int cells, int lrps, int instances, Duration p1Timeout, double p1TargetSeconds,
            double p0Target, double p0MachineTarget, String p0TargetText, Duration loadDuration, int tasks, int rolloutLrps, int warmLrps,
            int warmTasks, Duration longWait) {

        static final String P0_TARGET = "<= 1.2 core-ms (stretch 0.4)";
        private static final double NONE = Double.POSITIVE_INFINITY;
        static final Scale QUICK = new Scale("quick", 100, 1_000, 10, Duration.ofMinutes(5), 6, 1.2, NONE, P0_TARGET,
                Duration.ofSeconds(10), 1_000, 1_000, 1_000, 1_000, Duration.ofMinutes(5));
        static final Scale FULL = new Scale("full", 1_000, 10_000, 10, Duration.ofMinutes(5), 60, 1.2, NONE, P0_TARGET,
                Duration.ofSeconds(30), 10_000, 1_000, 10_000, 10_000, Duration.ofMinutes(5));
        /** Issue 41: a million instances on 10,000 cells, on the same two cores. */
        static final Scale MILLION = new Scale("million", 10_000, 100_000, 10, Duration.ofMinutes(10), 300, 0.5,
                0.6, "<= 0.5 core-ms (whole machine <= 0.6)", Duration.ofSeconds(30), 100_000, 10_000, 10_000, 10_000,
                Duration.ofMinutes(20));

        static Scale of(Set<String> options) {
            return options.contains("--million") ? MILLION : options.contains("--quick") ? QUICK : FULL;
        }

        long p1Instances() {
            return (long) lrps * instances;
        }
    }

    /**
     * {@code ./drover-bench --cli}: the command line's start ({@link CliStartup}) against a small cluster (three
     * simulated cells, one LRP of three instances), nothing else running.
     */
    private static List<Figure> cli() throws Exception {
        Path dataDir = Files.createTempDirectory("drover-bench-cli");
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, true, 0, 0, 3, "bench", "bench-password",
                BenchSettings.clusterProperties(3));
        Console.step("starting a cluster of three simulated cells");
        try (RunningCluster cluster = LocalCluster.start(settings, Console::detail);
             StoppedOnExit stoppedOnExit = new StoppedOnExit(cluster, dataDir);
             Database db = new Database(cluster.jdbcUrl(), "postgres", "postgres")) {
            BenchSettings.awaitCells(db, 3, Duration.ofMinutes(2));
            ReceptorClient client = new ReceptorClient(cluster.receptorUrl(), "bench", "bench-password", 1);
            client.send("POST", "/v1/desired_lrps", ReceptorClient.desiredLrp("cli-bench", 3, 32));
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (db.count("SELECT count(*) FROM actual_lrps WHERE process_guid = 'cli-bench' AND state = 'RUNNING'")
                    < 3 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(200_000_000L);
            }
            Console.step("./drover status cli-bench and ./drover cells, 20 runs each");
            List<Figure> figures = Console.taken(new CliStartup(Path.of("drover").toAbsolutePath(), cluster, "bench",
                    "bench-password").run("cli-bench", 20));
            Console.step("stopping the cluster");
            return figures;
        } finally {
            deleteData(dataDir);
        }
    }

    /**
     * Deletes the cluster's data (about 2 GB after a full run). PostgreSQL's last files may still come and go while a
     * walk runs (a walk then fails on a file that vanished): the next walk, a moment later, finds the rest.
     */
    private static void deleteData(Path dataDir) {
        IOException failed = null;
        for (int attempt = 1; attempt <= 5 && Files.exists(dataDir); attempt++) {
            try {
                FileSystemUtils.deleteRecursively(dataDir);
            } catch (IOException e) {
                failed = e;
                LockSupport.parkNanos(200_000_000L);
            }
        }
        if (Files.exists(dataDir)) {
            Console.detail("could not delete " + dataDir + ": " + failed);
        }
    }

    /**
     * Stops the cluster and deletes its data when the JVM is told to exit during a run (Ctrl-C, a kill): the run's own
     * end never comes then, and PostgreSQL, a process of its own, would stay behind with its data directory. Closed
     * before the cluster at a run's normal end, which stops the cluster and deletes the data itself.
     */
    private static final class StoppedOnExit implements AutoCloseable {

        private final Thread hook;

        StoppedOnExit(RunningCluster cluster, Path dataDir) {
            hook = new Thread(() -> {
                cluster.close();
                deleteData(dataDir);
            }, "bench-stop-cluster");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        @Override
        public void close() {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                // the hook is running: it stops the cluster
            }
        }
    }
}
