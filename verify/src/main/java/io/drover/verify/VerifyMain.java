package io.drover.verify;

import io.drover.cluster.console.LocalLogging;
import io.drover.verify.check.CheckResult;
import io.drover.verify.check.Checks;
import io.drover.verify.check.FaultKinds;
import io.drover.verify.compose.ComposeCluster;
import io.drover.verify.history.History;
import io.drover.verify.history.HistoryFile;
import io.drover.verify.planted.PlantedBugs;
import io.drover.verify.workload.LocalSite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ./drover-verify [--seed N] [--minutes M] [--clients N] [--keys N] [--faults a,b|none] [--deadline S]
 * [--planted-bugs all|name,...] [--check history.jsonl]}: starts the local cluster (three process cells, one JVM),
 * runs the random workload under faults, checks the history and prints one summary line; with {@code --planted-bugs},
 * then shows each check catching the bug planted for it. Exit 0 when every check passed (and every planted bug was
 * caught), 1 otherwise, 2 for a usage error. {@code --separate-jvms} runs each service in a JVM of its own (with a
 * standby converger and auctioneer, so that a frozen leader can be injected); {@code --compose} runs against the
 * compose cluster, started for the run from this build's images and removed after it ({@code --compose-project NAME}:
 * a running one, left running), with its faults injected through Docker.
 */
public final class VerifyMain {

    static final Set<String> ALL_FAULTS = Set.of(FaultKinds.REP_KILL, FaultKinds.DRAIN, FaultKinds.DATABASE,
            FaultKinds.KAFKA, FaultKinds.MESSAGES, FaultKinds.WORKLOAD_KILL, FaultKinds.LEADER_FREEZE,
            FaultKinds.PARTITION);

    private VerifyMain() {
    }

    public static void main(String[] args) throws IOException {
        List<String> a = new ArrayList<>(Arrays.asList(args));
        long seed = Long.parseLong(option(a, "--seed", String.valueOf(new SecureRandom().nextInt(1_000_000))));
        double minutes = Double.parseDouble(option(a, "--minutes", "2"));
        int clients = Integer.parseInt(option(a, "--clients", "8"));
        int keys = Integer.parseInt(option(a, "--keys", "5"));
        String faultList = option(a, "--faults", "all");
        String planted = option(a, "--planted-bugs", null);
        String check = option(a, "--check", null);
        Path results = Path.of(option(a, "--results", "verify/results"));
        String project = option(a, "--compose-project", null);
        boolean compose = a.remove("--compose") || project != null;
        // a rep of the compose cluster is a JVM starting in a container: its cell takes longer to come back
        long deadline = Long.parseLong(option(a, "--deadline", compose ? "180" : "90"));
        boolean separate = a.remove("--separate-jvms");
        if ((separate || compose) && planted != null) {
            System.err.println("drover-verify: --planted-bugs needs the services in this JVM (their switch is a system "
                    + "property of the JVM that runs them), not --separate-jvms or --compose");
            System.exit(2);
        }
        if (separate && compose) {
            System.err.println("drover-verify: --separate-jvms and --compose are two clusters; choose one");
            System.exit(2);
        }
        if (compose && !ComposeCluster.isRepository(Path.of(""))) {
            System.err.println("drover-verify: --compose runs from the repository's root (docker-compose.yml, "
                    + ComposeCluster.VERIFY_FILE + ")");
            System.exit(2);
        }
        if (!a.isEmpty()) {
            System.err.println("drover-verify: unknown arguments " + a);
            System.exit(2);
        }
        if (check != null) {
            System.exit(recheck(Path.of(check)));
        }
        Set<String> faults = faultList.equals("all") ? ALL_FAULTS : faultList.equals("none") ? Set.of()
                : new LinkedHashSet<>(List.of(faultList.split(",")));
        System.out.println("verify: seed " + seed + " (replay with --seed " + seed + "), " + clients + " clients, "
                + minutes + " min, faults " + (faultList.equals("all") ? "all the cluster supports" : faults));
        deleteRecursively(results.resolve("last-run-logs"));
        Path logs = LocalLogging.toFile(results.resolve("last-run-logs"), false);
        System.out.println("verify: " + (compose ? "the checker" : "the cluster") + " logs to " + logs);
        String marker = "drover-verify-" + ProcessHandle.current().pid();
        VerifyRun.Options options = new VerifyRun.Options("random", seed,
                Duration.ofMillis(Math.round(minutes * 60_000)), clients, keys, faults, Duration.ofSeconds(deadline));
        boolean ok = compose ? onCompose(project, marker, results, options)
                : onLocalCluster(separate, planted, marker, results, options, logs);
        System.exit(ok ? 0 : 1);
    }

    private static boolean onLocalCluster(boolean separate, String planted, String marker, Path results,
            VerifyRun.Options options, Path logs) throws IOException {
        Path dataDir = Files.createTempDirectory("drover-verify");
        long seed = options.seed();
        try (VerifyCluster cluster = VerifyCluster.start(dataDir, "verify-" + Long.toHexString(seed * 31 + 7), marker,
                seed, separate, logs)) {
            Session session = new Session(cluster.cluster().receptorUrl(), VerifyCluster.USER,
                    cluster.cluster().password(), cluster.cluster().kafkaBootstrapServers(), cluster.control(),
                    cluster.drains(), new LocalSite(dataDir), marker, results,
                    separate ? "local-cluster, separate JVMs" : "local-cluster, one JVM", VerifyCluster.TIMINGS);
            boolean ok = random(session, options, separate ? " (one JVM has them)" : " (needs --separate-jvms)")
                    .anomalies() == 0;
            if (planted != null) {
                ok &= PlantedBugs.demonstrate(session, planted, seed, System.out);
            }
            return ok;
        } finally {
            deleteRecursively(dataDir);
        }
    }

    private static boolean onCompose(String project, String marker, Path results, VerifyRun.Options options) {
        Path root = Path.of("").toAbsolutePath();
        String password = System.getenv().getOrDefault("DROVER_RECEPTOR_PASSWORD", "drover-compose");
        try (ComposeCluster cluster = project == null
                ? ComposeCluster.start(root, "drover-verify-" + ProcessHandle.current().pid())
                : ComposeCluster.attach(root, project, password)) {
            System.out.println("verify: compose project " + cluster.project() + ", receptor " + cluster.receptorUrl()
                    + ", broker " + (cluster.kafkaBootstrapServers() == null ? "not published (no topic reader)"
                            : cluster.kafkaBootstrapServers()) + ", " + cluster.timings());
            Session session = new Session(cluster.receptorUrl(), cluster.user(), cluster.password(),
                    cluster.kafkaBootstrapServers(), cluster.control(), cluster.drains(), cluster.site(), marker,
                    results, "compose", cluster.timings().timings());
            VerifyRun.Outcome outcome = null;
            try {
                outcome = random(session, options, " (their interceptor would have to be on the services' classpath)");
                return outcome.anomalies() == 0;
            } finally {
                // beside the run's history, so that a later run does not take the logs its anomalies need
                Path logs = outcome == null ? results.resolve("last-run-logs")
                        : Path.of(outcome.file().toString().replace(".jsonl", ".logs"));
                cluster.saveLogs(logs);
                System.out.println("verify: the containers' logs and thread dumps in " + logs);
            }
        }
    }

    /** The random run on a session, its report printed and written. */
    private static VerifyRun.Outcome random(Session session, VerifyRun.Options options, String whyNot) {
        Set<String> skipped = new TreeSet<>(options.faults());
        skipped.removeAll(session.control().supported());
        if (!skipped.isEmpty()) {
            System.out.println("verify: not injected in this cluster: " + skipped + whyNot);
        }
        VerifyRun.Outcome outcome = VerifyRun.run(session, options, null);
        Report.write(outcome, options.seed());
        Report.print(outcome, options.seed(), System.out);
        return outcome;
    }

    /** Checks a recorded history again (after a change of a check, say). */
    private static int recheck(Path file) {
        History history = HistoryFile.read(file);
        List<CheckResult> results = Checks.run(history);
        long anomalies = results.stream().mapToLong(r -> r.anomalies().size()).sum();
        for (CheckResult r : results) {
            System.out.println("  " + r.check() + ": " + (r.wasSkipped() ? "skipped, " + r.skipped()
                    : r.anomalies().size() + " anomalies " + r.figures()));
            r.anomalies().forEach(x -> {
                System.out.println("  ANOMALY " + x);
                x.excerpt().forEach(line -> System.out.println("      " + line));
            });
        }
        System.out.println("verify: " + anomalies + " anomalies in " + file);
        return anomalies == 0 ? 0 : 1;
    }

    private static String option(List<String> args, String name, String fallback) {
        int i = args.indexOf(name);
        if (i < 0) {
            return fallback;
        }
        if (i + 1 >= args.size()) {
            System.err.println("drover-verify: " + name + " needs a value");
            System.exit(2);
        }
        String value = args.get(i + 1);
        args.remove(i + 1);
        args.remove(i);
        return value;
    }

    private static void deleteRecursively(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
