package io.drover.verify.compose;

import io.drover.model.json.Json;
import io.drover.verify.fault.ClusterControl;
import io.drover.verify.fault.Drains;
import io.drover.verify.workload.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The compose cluster the checker runs against: {@code docker-compose.yml} with {@code docker-compose.verify.yml} on
 * top, started by the compose test's start-up ({@code docker/compose-test/startup.py}: the images from this build,
 * free host ports from the OS, a random password; without the router and the simulated cells, which the checker does
 * not use) and removed again when it closes; or a running project attached to, and left running. Everything else is
 * read from the containers: the receptor's and the broker's published ports, the reps' cells, the clocks.
 */
public final class ComposeCluster implements AutoCloseable {

    public static final String VERIFY_FILE = "docker-compose.verify.yml";
    static final List<String> SERVICES = List.of("postgres", "kafka", "receptor", "converger-1", "converger-2",
            "auctioneer-1", "auctioneer-2", "rep-1", "rep-2");
    static final List<String> REPS = List.of("rep-1", "rep-2");
    private static final String STARTUP = "docker/compose-test/startup.py";
    private static final String KAFKA_PORT = "DROVER_KAFKA_PORT";
    /**
     * The reps' published ranges begin here: the local clusters of this machine's tests take 61000-64899 (300 ports a
     * cell from 61000, the checker's own from 64000), and a rep cut off the network gives its ports up until it is
     * connected again, when it needs them back.
     */
    private static final int PORT_BASE = 65000;

    private final Path root;
    private final Project project;
    private final boolean started;
    private final String user;
    private final String password;
    private final String receptorUrl;
    private final String kafkaBootstrapServers;
    private final ComposeTimings timings;
    private final ComposeControl control;
    private final ComposeDrains drains;
    private final ComposeSite site;

    private ComposeCluster(Path root, Project project, boolean started, String password) {
        this.root = root;
        this.project = project;
        this.started = started;
        this.password = password;
        Docker docker = new Docker();
        this.user = project.env("receptor").getOrDefault("DROVER_RECEPTOR_USERNAME", "drover");
        this.receptorUrl = "http://127.0.0.1:" + project.publishedPort("receptor", 8080).orElseThrow(
                () -> new IllegalStateException("the receptor of " + project.name() + " publishes no port"));
        this.kafkaBootstrapServers = project.publishedPort("kafka", 9094).map(p -> "127.0.0.1:" + p).orElse(null);
        this.timings = ComposeTimings.of(project.env("rep-1"), project.env("converger-1"), project.env("auctioneer-1"));
        Project.Network network = project.network("receptor");
        this.control = new ComposeControl(docker, project, network, REPS, timings.leaderTtl());
        this.drains = new ComposeDrains(docker, project, REPS);
        this.site = new ComposeSite(docker, project, REPS, network.gateway());
    }

    /** Starts the project {@code name} from the repository at {@code root}; it is removed again on close. */
    public static ComposeCluster start(Path root, String name) {
        Docker docker = new Docker();
        List<String> projects = docker.attempt("ps", "-a", "--format", "{{.Label \"com.docker.compose.project\"}}")
                .map(out -> out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList()).orElse(List.of());
        for (String stale : StaleProjects.among(projects, StaleProjects::checkerAlive)) {
            System.out.println("verify: removing " + stale + ", left by a checker that is gone");
            down(root, stale);
        }
        List<String> command = new ArrayList<>(List.of("python3", "-B", STARTUP, "up", "--project", name, "--file",
                VERIFY_FILE, "--port", KAFKA_PORT, "--port-base", String.valueOf(PORT_BASE)));
        SERVICES.forEach(s -> command.addAll(List.of("--service", s)));
        JsonNode up;
        try {
            Process p = new ProcessBuilder(command).directory(root.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = p.waitFor();
            if (exit != 0) {
                throw new IllegalStateException(STARTUP + " up exited " + exit + " (its log above)");
            }
            up = Json.tree(out.strip().lines().reduce((a, b) -> b).orElse("{}"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + name + " started", e);
        }
        Project project = new Project(docker, name);
        try {
            return new ComposeCluster(root, project, true, up.path("env").path("DROVER_RECEPTOR_PASSWORD").asString());
        } catch (RuntimeException e) {
            down(root, name);
            throw e;
        }
    }

    /** Attaches to the running project {@code name} (started with {@value #VERIFY_FILE} on top); left running. */
    public static ComposeCluster attach(Path root, String name, String password) {
        Project project = new Project(new Docker(), name);
        if (project.containers().isEmpty()) {
            throw new IllegalArgumentException("no container of a compose project " + name);
        }
        return new ComposeCluster(root, project, false, password);
    }

    /** Whether {@code root} holds the compose files this needs. */
    public static boolean isRepository(Path root) {
        return Files.exists(root.resolve("docker-compose.yml")) && Files.exists(root.resolve(VERIFY_FILE))
                && Files.exists(root.resolve(STARTUP));
    }

    public String project() {
        return project.name();
    }

    public String receptorUrl() {
        return receptorUrl;
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** The broker's address on this machine, null when the project does not publish it (no topic reader then). */
    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    public ComposeTimings timings() {
        return timings;
    }

    public ClusterControl control() {
        return control;
    }

    public Drains drains() {
        return drains;
    }

    public Site site() {
        return site;
    }

    /**
     * Each service's container log to {@code dir/<service>.log}, and each Drover JVM's threads as they are now to
     * {@code dir/<service>.threads} (where {@code jcmd} runs here: a thread stuck since a fault shows there), for the
     * anomalies' investigation.
     */
    public void saveLogs(Path dir) {
        try {
            Files.createDirectories(dir);
            for (String service : SERVICES) {
                Files.writeString(dir.resolve(service + ".log"), project.logs(service));
                if (!service.equals("postgres")) {
                    Optional<String> threads = project.threadDump(service);
                    if (threads.isPresent()) {
                        Files.writeString(dir.resolve(service + ".threads"), threads.get());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("drover-verify: could not save the containers' logs: " + e);
        }
    }

    @Override
    public void close() {
        if (started) {
            down(root, project.name());
        }
    }

    private static void down(Path root, String name) {
        try {
            new ProcessBuilder("python3", "-B", STARTUP, "down", "--project", name)
                    .directory(root.toFile()).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
