package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code ./drover-local}'s main in a process of its own, as a user runs it: when a part cannot start, the parts that
 * did are stopped (no PostgreSQL left running), one line on stderr says why, nothing else reaches the terminal, and
 * the process exits with status 1 instead of hanging half-started.
 */
class LocalClusterMainIT {

    @TempDir
    Path dir;

    @Test
    void aPartThatCannotStartStopsTheOthersAndTheProcessExitsSayingWhyInOneLine() throws Exception {
        Path data = dir.resolve("local");
        Files.createDirectories(data);
        // Kafka's storage directory is a file: the broker cannot start, while PostgreSQL (started beside it) can.
        Files.writeString(data.resolve("kafka"), "not a directory");
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process main = new ProcessBuilder(localCluster("--data-dir=" + data, "--receptor-port=0"))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();

        assertThat(main.waitFor(3, TimeUnit.MINUTES)).as("the process exits").isTrue();
        assertThat(main.exitValue()).isEqualTo(1);
        List<String> errors = Files.readAllLines(err);
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).startsWith("drover: could not start: Kafka did not start: ")
                .contains(data.resolve("logs").resolve("drover.log").toString());
        assertThat(Files.readAllLines(out)).singleElement().asString().startsWith("drover: starting in ");
        assertThat(Files.readString(data.resolve("logs").resolve("drover.log"))).contains("local-cluster-start-failed");
        assertThat(ProcessHandle.allProcesses().flatMap(p -> p.info().commandLine().stream())
                .filter(command -> command.contains(data.resolve("postgres").toString())))
                .as("PostgreSQL was stopped").isEmpty();
    }

    @Test
    void aClusterKilledWithSigkillStartsAgainAndAdoptsTheWorkloadsThatKeptRunning() throws Exception {
        Path data = dir.resolve("killed");
        String marker = dir.resolve("www-" + UUID.randomUUID()).toString();
        Files.createDirectories(Path.of(marker));
        Process first = launch(data, "first");
        Map<String, String> env = awaitUp(first, data, "first");
        Path log = data.resolve("logs").resolve("drover.log");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(log).contains("Drover is up"));
        assertThat(Files.readString(log)).as("the password is on the terminal, never in the log")
                .doesNotContain("killed-Secret-1");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.resolve("cluster.env"))))
                .isEqualTo("rw-------");
        String guid = "killed-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(call(env, "POST", "/v1/desired_lrps", Api.lrp(guid, 2, 64, "preloaded:host", "sh", "-c",
                "exec python3 -m http.server --bind 127.0.0.1 \"$PORT\" --directory " + marker)).statusCode())
                .isEqualTo(201);
        await().atMost(Duration.ofSeconds(60)).until(() -> running(env, guid).size() == 2);
        Set<String> before = running(env, guid);

        first.destroyForcibly(); // SIGKILL: no shutdown hook, PostgreSQL and the workloads keep running
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(LeftoverPostgres.running(data.resolve("postgres"))).as("the killed run left its PostgreSQL").isPresent();
        Files.delete(data.resolve("cluster.env"));

        Process second = launch(data, "second");
        try {
            Map<String, String> again = awaitUp(second, data, "second");
            assertThat(Files.readString(dir.resolve("second.out"))).as("says what it recovered, in one line")
                    .containsOnlyOnce("stopped the PostgreSQL server");
            await().atMost(Duration.ofSeconds(60)).until(() -> running(again, guid).equals(before));
            assertThat(processes(marker)).as("one process per instance: adopted, not started again").hasSize(2);
        } finally {
            second.destroy(); // SIGTERM: a clean stop ends the workloads too
            assertThat(second.waitFor(2, TimeUnit.MINUTES)).isTrue();
            processes(marker).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * The local cluster's main in a JVM of its own, started as {@code ./drover-local} starts it (the serial collector,
     * the C1 compiler alone, at most 2 GB of heap): a short-lived process pays far less CPU for its start that way.
     */
    private static List<String> localCluster(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx2g",
                "-Ddrover.local.host-port-base=" + childPortBase(),
                "-cp",
                System.getProperty("java.class.path"), LocalClusterMain.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The child's one cell takes 300 host ports apart from those of the clusters the forks run in-process (fork N's
     * three cells hold 6N000-6N899, N = 1..3): 64000, 64300 or 64600, by this fork's number, so within 65535.
     */
    static int childPortBase() {
        int fork = (Integer.getInteger("drover.local.host-port-base", 61000) - 60000) / 1000;
        return 64000 + (Math.floorMod(fork - 1, 3)) * 300;
    }

    private Process launch(Path data, String name) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(localCluster("--data-dir=" + data, "--receptor-port=0",
                "--cells=1")).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile());
        builder.environment().put("DROVER_RECEPTOR_PASSWORD", "killed-Secret-1");
        return builder.start();
    }

    /** What a cluster that stopped early said: its standard error and the end of its log. */
    private String said(Path data, String name) {
        StringBuilder said = new StringBuilder();
        for (Path file : List.of(dir.resolve(name + ".err"), data.resolve("logs").resolve("drover.log"))) {
            try {
                List<String> lines = Files.readAllLines(file);
                said.append("\n--- ").append(file).append('\n')
                        .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
            } catch (java.io.IOException e) {
                said.append("\n--- ").append(file).append(": ").append(e);
            }
        }
        return said.toString();
    }

    /** The cluster.env a started cluster writes, as a map. */
    private Map<String, String> awaitUp(Process main, Path data, String name) {
        Path env = data.resolve("cluster.env");
        await().atMost(Duration.ofMinutes(3)).until(() -> Files.exists(env) || !main.isAlive());
        assertThat(main.isAlive()).as(() -> "the cluster came up; it said: " + said(data, name)).isTrue();
        Map<String, String> values = new java.util.HashMap<>();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (String line : Files.readAllLines(env)) {
                String[] kv = line.replaceFirst("^export ", "").split("=", 2);
                values.put(kv[0], kv[1]);
            }
            return values.containsKey("DROVER_PASSWORD");
        });
        return values;
    }

    private static Set<String> running(Map<String, String> env, String guid) throws Exception {
        Set<String> guids = new TreeSet<>();
        HttpResponse<String> response = call(env, "GET", "/v1/actual_lrps/" + guid, null);
        if (response.statusCode() == 200) {
            for (JsonNode a : Json.tree(response.body())) {
                if ("RUNNING".equals(a.path("state").asString())) {
                    guids.add(a.path("instance_guid").asString());
                }
            }
        }
        return guids;
    }

    private static HttpResponse<String> call(Map<String, String> env, String method, String path, String body)
            throws Exception {
        String auth = Base64.getEncoder().encodeToString((env.get("DROVER_USER") + ":" + env.get("DROVER_PASSWORD"))
                .getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(env.get("DROVER_URL") + path))
                .header("Authorization", "Basic " + auth).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<ProcessHandle> processes(String marker) {
        List<ProcessHandle> found = new ArrayList<>();
        ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(marker)
                && c.contains("http.server")).orElse(false)).forEach(found::add);
        return found;
    }
}
