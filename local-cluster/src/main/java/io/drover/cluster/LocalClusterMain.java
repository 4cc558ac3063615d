package io.drover.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./drover-local [--fresh] [--data-dir=DIR] [--receptor-port=N] [--cells=N] [--simulated-cells=N]
 * [--separate-jvms]}: starts the local cluster (with {@code --separate-jvms} each service in a JVM of its own), prints
 * the receptor URL and credentials (also written to {@code DIR/cluster.env}), and shuts everything down on Ctrl-C.
 */
public final class LocalClusterMain {

    private LocalClusterMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = Options.parse(args);
        Path dataDir = Path.of(options.getOrDefault("data-dir", ".drover/local")).toAbsolutePath();
        String password = System.getenv().getOrDefault("DROVER_RECEPTOR_PASSWORD", generatedPassword());
        LocalClusterSettings settings = new LocalClusterSettings(dataDir, options.containsKey("fresh"),
                Integer.parseInt(options.getOrDefault("receptor-port", "8080")),
                Integer.parseInt(options.getOrDefault("cells", "3")),
                Integer.parseInt(options.getOrDefault("simulated-cells", "0")),
                System.getenv().getOrDefault("DROVER_RECEPTOR_USERNAME", "drover"), password, Map.of());
        long started = System.nanoTime();
        RunningCluster cluster = options.containsKey("separate-jvms") ? ProcessCluster.start(settings)
                : LocalCluster.start(settings);
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("drover: stopping the local cluster...");
            cluster.close();
            stopped.countDown();
        }, "local-cluster-shutdown"));
        Path env = writeEnv(dataDir, cluster);
        System.out.printf("%n  Drover is up (%d s).%n  receptor: %s%n  user:     %s%n  password: %s%n"
                + "  kafka:    %s%n  (also in %s; Ctrl-C stops everything)%n%n", seconds, cluster.receptorUrl(),
                cluster.username(), cluster.password(), cluster.kafkaBootstrapServers(), env);
        stopped.await();
    }

    private static Path writeEnv(Path dataDir, RunningCluster cluster) throws IOException {
        Path env = dataDir.resolve("cluster.env");
        Files.writeString(env, "export DROVER_URL=" + cluster.receptorUrl() + "\n"
                + "export DROVER_USER=" + cluster.username() + "\n"
                + "export DROVER_PASSWORD=" + cluster.password() + "\n"
                + "export DROVER_KAFKA=" + cluster.kafkaBootstrapServers() + "\n");
        return env;
    }

    private static String generatedPassword() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
