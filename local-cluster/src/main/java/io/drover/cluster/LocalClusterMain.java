package io.drover.cluster;

import io.drover.cluster.console.Banner;
import io.drover.cluster.console.ClusterWatch;
import io.drover.cluster.console.LocalLogging;
import io.drover.cluster.console.Terminal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * {@code ./drover-local [--fresh] [--data-dir=DIR] [--receptor-port=N] [--router-port=N] [--cells=N] [--simulated-cells=N] [--verbose]
 * [--separate-jvms]}: starts the local cluster (with {@code --separate-jvms} each service in a JVM of its own) with a
 * few lines of progress, prints the receptor URL, credentials (also written to {@code DIR/cluster.env}) and what to try
 * next (and the router's URL), then one line per cluster event; the full logs go to {@code DIR/logs/drover.log}. Ctrl-C stops everything. A
 * part that fails to start stops the rest, and the process exits with status 1 after one line saying why.
 */
public final class LocalClusterMain {

    private static final Set<String> OPTIONS = Set.of("fresh", "data-dir", "receptor-port", "router-port", "cells",
            "simulated-cells", "verbose", "separate-jvms", "containers", "rootfs");

    private LocalClusterMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options;
        LocalClusterSettings settings;
        try {
            options = Options.parse(args, OPTIONS);
            settings = settings(options);
        } catch (IllegalArgumentException e) {
            System.err.println("drover-local: " + e.getMessage() + " (options: see README.md)");
            System.exit(2);
            return;
        }
        // before the log file is made in it: the database, the logs and cluster.env are the user's only
        ClusterFiles.dataDirectory(settings.dataDir());
        Path logFile = LocalLogging.toFile(settings.dataDir().resolve("logs"), options.containsKey("verbose"));
        Terminal terminal = new Terminal(System.out, Clock.systemDefaultZone());
        terminal.say("starting in " + shown(settings.dataDir()) + "; logs in " + shown(logFile)
                + (options.containsKey("verbose") ? "" : " (--verbose shows them here)"));
        RunningCluster cluster;
        try {
            cluster = options.containsKey("separate-jvms") ? ProcessCluster.start(settings)
                    : LocalCluster.start(settings, terminal::step);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(LocalClusterMain.class).error("local-cluster-start-failed", e);
            String why = e instanceof LocalClusterStartException ? e.getMessage() : e.toString();
            System.err.println("drover: could not start: " + why + " (details: " + shown(logFile) + ")");
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        try {
            Path env = writeEnv(settings.dataDir(), cluster);
            // The event lines read the converger's meters in this JVM: a cluster of separate JVMs has only its logs.
            ClusterWatch watch = cluster instanceof LocalCluster local
                    ? new ClusterWatch(local, terminal::event, Clock.systemDefaultZone()).start() : null;
            boolean archiving = markUp();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                terminal.say("stopping every workload and the cluster ...");
                if (watch != null) {
                    watch.close();
                }
                cluster.close();
                terminal.say(archiving ? "stopped; now saving the loaded classes for a faster start next time (once)"
                        : "stopped");
                stopped.countDown();
            }, "local-cluster-shutdown"));
            Banner.show(terminal, terminal.elapsed().toSeconds(), cluster.receptorUrl(), cluster.routerUrl(),
                    cluster.username(), cluster.password(), cluster.kafkaBootstrapServers(), shown(env));
        } catch (IOException | RuntimeException e) {
            LoggerFactory.getLogger(LocalClusterMain.class).error("local-cluster-start-failed", e);
            System.err.println("drover: could not start: " + e + " (details: " + shown(logFile) + ")");
            cluster.close();
            System.exit(1);
        }
        stopped.await();
    }

    /**
     * Tells ./drover-local that this session came up, so the class archive the JVM writes when it ends is worth keeping
     * ({@code -Ddrover.local.up-marker}); true when there is such an archive to write.
     */
    private static boolean markUp() throws IOException {
        String marker = System.getProperty("drover.local.up-marker");
        if (marker == null) {
            return false;
        }
        Files.writeString(Path.of(marker), "up\n");
        return true;
    }

    private static LocalClusterSettings settings(Map<String, String> options) {
        Path dataDir = options.containsKey("data-dir") ? userDir().resolve(options.get("data-dir"))
                : Path.of(".drover", "local").toAbsolutePath();
        String password = System.getenv().getOrDefault("DROVER_RECEPTOR_PASSWORD", generatedPassword());
        return new LocalClusterSettings(dataDir.normalize(), options.containsKey("fresh"),
                Options.number(options, "receptor-port", 8080, 0), Options.number(options, "cells", 3, 0),
                Options.number(options, "simulated-cells", 0, 0),
                System.getenv().getOrDefault("DROVER_RECEPTOR_USERNAME", "drover"), password, containers(options),
                Options.number(options, "router-port", 8081, 0));
    }

    /**
     * {@code --containers}: the cells run every instance in a container of an OCI runtime where one works
     * (docs/isolation.md); {@code --rootfs=NAME} (prepared by the script, ./drover-rootfs) adds preloaded:NAME.
     */
    private static Map<String, String> containers(Map<String, String> options) {
        if (!options.containsKey("containers") && !options.containsKey("rootfs")) {
            return Map.of();
        }
        String providers = "preloaded:host" + (options.containsKey("rootfs") ? ",preloaded:" + options.get("rootfs")
                : "");
        return Map.of("drover.rep.executor", "container", "drover.rep.rootfs-providers", providers);
    }

    /** The directory the user started {@code ./drover-local} from (the script changes to the repository first). */
    private static Path userDir() {
        String cwd = System.getenv("DROVER_LOCAL_CWD");
        return Path.of(cwd == null || cwd.isBlank() ? System.getProperty("user.dir") : cwd).toAbsolutePath();
    }

    /** A path as the user would type it from where they started. */
    private static String shown(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return absolute.startsWith(userDir()) ? userDir().relativize(absolute).toString() : absolute.toString();
    }

    private static Path writeEnv(Path dataDir, RunningCluster cluster) throws IOException {
        return ClusterFiles.writeEnv(dataDir, cluster.receptorUrl(), cluster.username(), cluster.password(),
                cluster.kafkaBootstrapServers(), cluster.routerUrl());
    }

    private static String generatedPassword() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
