package io.drover.bench;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.ProcessCluster;
import io.drover.cluster.RunningCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** How the benchmark configures the cluster, and the scenarios that need the services' insides (P2, P3). */
final class BenchSettings {

    private BenchSettings() {
    }

    static final Duration PRESENCE_TTL = Duration.ofSeconds(15);

    static Map<String, String> clusterProperties(int cells) {
        // completed tasks are kept until P6 has counted them (the default reaps them after two minutes); the converger
        // runs at its default interval (30 s): its passes during P1 are part of what an instance costs
        // P6's tasks call back a recording server on this machine's loopback, which callbacks may not reach by default
        return Map.of("logging.level.root", "WARN", "logging.level.io.drover.cluster", "INFO",
                "drover.rep.timing.presence-ttl", PRESENCE_TTL.toSeconds() + "s",
                "drover.converger.tasks.completed-ttl", "30m",
                "drover.receptor.tasks.callback-allowed-hosts", "*,127.0.0.1");
    }

    static void awaitCells(Database db, int cells, Duration timeout) throws InterruptedException {
        Console.step("waiting for %,d cells to register".formatted(cells));
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Console.Progress progress = Console.progress("cells", cells, "registered")) {
            long n = db.awaitCount(live -> live >= cells, deadline, Duration.ofMillis(200), progress,
                    "SELECT count(*) FROM cells WHERE expires_at > now()");
            if (n < cells) {
                throw new IllegalStateException("only %,d of %,d cells registered within %s".formatted(n, cells,
                        timeout));
            }
        }
    }

    /**
     * P2 and P3 read the converger's timer and stop the rep context of the victim cell ({@code victimRep}): only with
     * every service in this JVM.
     */
    static List<Figure> clusterScenarios(RunningCluster running, Database db, int victimRep)
            throws InterruptedException {
        if (!(running instanceof LocalCluster cluster)) {
            return List.of(Console.taken(new Figure("P2, P3 (need the services in this JVM)",
                    "not run with --separate-jvms", "-", true, "run without --separate-jvms for P2 and P3")));
        }
        Console.step("P2: the converger's next two passes (it runs every 30 s)");
        Figure p2 = Console.taken(new ConvergencePassTiming(cluster, db).run(Duration.ofSeconds(75)));
        Console.step("P3: a cell dies without a word; waiting for its instances to run elsewhere");
        Figure p3 = Console.taken(new CellLoss(cluster, db, victimRep).run(PRESENCE_TTL, Duration.ofSeconds(120)));
        return List.of(p2, p3);
    }

    /** The receptor as P4 measures it: its Tomcat threads in this JVM, or its whole process. */
    static ReceptorLoad.Receptor receptor(RunningCluster running) {
        if (running instanceof ProcessCluster processes) {
            long pid = processes.services().stream().filter(s -> s.name().equals("receptor-service")).findFirst()
                    .orElseThrow().process().pid();
            return new ReceptorLoad.Receptor() {
                @Override
                public ServiceCpu cpu() {
                    return ServiceCpu.process(pid);
                }

                @Override
                public ReceptorLoad.Recording startRecording() throws java.io.IOException, InterruptedException {
                    return RemoteProfile.start(pid)::stopAndSummarize;
                }
            };
        }
        ServiceCpu threads = ServiceCpu.threadsNamed("http-nio");
        return new ReceptorLoad.Receptor() {
            @Override
            public ServiceCpu cpu() {
                return threads;
            }

            @Override
            public ReceptorLoad.Recording startRecording() {
                Profile profile = Profile.start();
                return file -> {
                    try (profile) {
                        return profile.stopAndSummarize(file);
                    }
                };
            }
        };
    }
}
