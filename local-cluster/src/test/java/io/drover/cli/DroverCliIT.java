package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.cluster.LocalCluster;
import io.drover.cluster.LocalClusterSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The CLI's main, run in this JVM against a real local cluster (embedded PostgreSQL, in-process Kafka, every service,
 * three process cells): what a user types, what they see, and what a script parses. One cluster for the class; the
 * tests run in order on one LRP that prints known lines (and a few tasks beside it, and a cell drained under it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DroverCliIT {

    private static final String APP = "ticker";
    /** Generous: this class may be the first of its fork, its cluster started cold on a loaded machine. */
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dataDir;

    @TempDir
    static Path workDir;

    private LocalCluster cluster;
    private Map<String, String> env;

    @BeforeAll
    void startCluster() {
        cluster = LocalCluster.start(new LocalClusterSettings(dataDir, true, 0, 3, 0, "cli", "cli-secret", Map.of(
                "drover.rep.timing.heartbeat-interval", "1s", "drover.rep.timing.presence-ttl", "4s",
                "drover.rep.timing.sync-interval", "3s", "drover.rep.timing.stop-grace", "2s",
                "drover.converger.interval", "2s", "drover.converger.desired-change-delay", "200ms")));
        env = Map.of("DROVER_URL", cluster.receptorUrl(), "DROVER_USER", "cli", "DROVER_PASSWORD", "cli-secret");
        await().atMost(WAIT).until(() -> cli("cells", "-o", "json").json().size() == 3);
    }

    @AfterAll
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void desireThenStatusShowsEveryInstanceRunningWithItsAddress() {
        CliRun desired = cli("desire", APP, "-i", "1", "-p", "8080", "-m", "32", "-e", "GREETING=hello", "--",
                "sh", "-c", "echo \"$GREETING from $INSTANCE_INDEX\"; echo to-stderr >&2; n=0; "
                        + "while true; do n=$((n+1)); echo tick-$n; sleep 0.3; done");
        assertThat(desired.exit()).as(desired.err()).isZero();
        assertThat(desired.out()).startsWith("desired ticker: 1 instance(s) in domain default");
        await().atMost(WAIT).until(() -> running() == 1);

        CliRun status = cli("status", APP);
        assertThat(status.exit()).isZero();
        assertThat(status.out()).startsWith("ticker: 1/1 running, domain default, 32 MB, sh -c")
                .contains("INDEX", "STATE", "RUNNING", "cell-z").containsPattern("127\\.0\\.0\\.1:\\d+");
        JsonNode instance = cli("status", APP, "-o", "json").json().get(0);
        assertThat(instance.path("process_guid").asString()).isEqualTo(APP);
        assertThat(cli("-o", "json", "status", APP).json()).hasSize(1);
    }

    @Test
    @Order(2)
    void scaleAddsAnInstanceAndListShowsIt() {
        assertThat(cli("scale", APP, "2").exit()).isZero();
        await().atMost(WAIT).until(() -> running() == 2);
        assertThat(cli("list").out()).contains(APP, "2/2", "32 MB", "8080");
        JsonNode listed = cli("list", "-o", "json").json().stream()
                .filter(l -> APP.equals(l.path("process_guid").asString())).findFirst().orElseThrow();
        assertThat(listed.path("instances").asInt()).isEqualTo(2);
    }

    @Test
    @Order(3)
    void logsShowWhatEachInstancePrintedAndTheRepsLifecycleLines() {
        await().atMost(WAIT).until(() -> cli("logs", APP, "--index", "1").out().contains("tick-2"));
        CliRun one = cli("logs", APP, "--index", "0", "--tail", "1000");
        assertThat(one.exit()).as(one.err()).isZero();
        assertThat(one.out()).contains("[rep] claimed by cell-z", "[rep] process started (pid", "[rep] running",
                "[stdout] hello from 0", "[stderr] to-stderr", "[stdout] tick-1");

        CliRun stderr = cli("logs", APP, "--index", "0", "--stream", "stderr");
        assertThat(stderr.out().lines().toList()).singleElement().asString().endsWith("[stderr] to-stderr");

        List<JsonNode> all = cli("logs", APP, "--tail", "3", "-o", "json").json();
        assertThat(all).hasSize(6);
        assertThat(all.stream().map(l -> l.path("index").asInt()).collect(Collectors.toSet())).containsExactly(0, 1);
        assertThat(all).allMatch(l -> l.path("timestamp").asString().endsWith("Z")
                && Set.of("stdout", "stderr", "rep").contains(l.path("source").asString()));
    }

    @Test
    @Order(4)
    void followSeesNewLinesAndEndsWhenTheInstanceIsRestartedWhileEventsShowTheRestart() throws Exception {
        Capture logs = Capture.start(env, workDir, "logs", APP, "-i", "0", "-f", "--tail", "0");
        Capture events = Capture.start(env, workDir, "events", "-o", "json", "--type", "actual_lrp_removed",
                "--count", "1", "--for", "60s");
        await().atMost(WAIT).until(() -> logs.out().lines().filter(l -> l.contains("[stdout] tick-")).count() >= 2
                && sseClients() >= 1);

        CliRun restart = cli("restart", APP, "0");
        assertThat(restart.exit()).isZero();
        assertThat(restart.out()).isEqualTo("restarting ticker instance 0\n");

        assertThat(logs.exit().get()).isZero();
        assertThat(logs.out()).contains("[rep] stopping").endsWith("[rep] stopped\n");
        assertThat(events.exit().get()).isZero();
        JsonNode removed = new CliRun(0, events.out(), "").json().get(0);
        assertThat(removed.path("type").asString()).isEqualTo("actual_lrp_removed");
        assertThat(removed.path("data").path("actual_lrp").path("process_guid").asString()).isEqualTo(APP);
        await().atMost(WAIT).until(() -> running() == 2);
    }

    @Test
    @Order(5)
    void cellsVisualizeAndDomainsShowTheCluster() {
        CliRun cells = cli("cells");
        assertThat(cells.out()).contains("CELL", "ZONE", "MEMORY", "CONTAINERS", "cell-z1", "z3", "ACTIVE",
                "/4096 MB", "/64");
        assertThat(cli("-o", "json", "cells").json()).hasSize(3);
        CliRun visualize = cli("visualize");
        assertThat(visualize.out()).contains("cell-z1", "R running");
        assertThat(visualize.out().chars().filter(c -> c == 'R').count()).isGreaterThanOrEqualTo(3);
        assertThat(cli("visualize", "-o", "json").json()).extracting(n -> n.path("cell_id").asString())
                .contains("cell-z1", "cell-z2", "cell-z3");
        assertThat(cli("domains").exit()).isZero();
        CliRun watched = cli("status", APP, "--watch", "--interval", "1", "--frames", "2");
        assertThat(watched.out().split("ticker: ", -1)).hasSize(3);
    }

    @Test
    @Order(6)
    void apiErrorsExitOneWithTheirNameAndAFileDefinesAnLrp() throws Exception {
        CliRun missing = cli("scale", "no-such-lrp", "2");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).startsWith("DesiredLRPNotFound: ");
        CliRun restartMissing = cli("restart", APP, "9");
        assertThat(restartMissing.exit()).isEqualTo(1);
        assertThat(restartMissing.err()).startsWith("ActualLRPIndexNotFound: ");
        assertThat(cli("desire", APP, "--", "true").err()).startsWith("DesiredLRPAlreadyExists: ");

        Files.writeString(workDir.resolve("lrp.json"), """
                {"domain": "files", "rootfs": "preloaded:host", "instances": 1, "memory_mb": 16,
                 "action": {"run": {"path": "sleep", "args": ["1000"]}}}""");
        CliRun fromFile = cli("desire", "from-file", "-f", "lrp.json", "-o", "json");
        assertThat(fromFile.exit()).as(fromFile.err()).isZero();
        assertThat(fromFile.json().get(0).path("process_guid").asString()).isEqualTo("from-file");
        assertThat(cli("delete", "from-file").exit()).isZero();
    }

    @Test
    @Order(7)
    void aTaskSubmittedWithWaitEndsWithItsResultAndTasksGetLogsCancelAndDeleteFollowIt() {
        CliRun answer = cli("task", "submit", "answer", "-m", "16", "--result-file", "out.txt", "--wait", "--",
                "sh", "-c", "echo 42 > out.txt");
        assertThat(answer.exit()).as(answer.err()).isZero();
        assertThat(answer.out()).isEqualTo("answer COMPLETED: ok: 42\n");
        assertThat(cli("tasks").out()).contains("TASK", "OUTCOME", "answer", "ok: 42");
        assertThat(cli("tasks", "--state", "completed", "-o", "json").json())
                .anyMatch(t -> "answer".equals(t.path("task_guid").asString()));
        assertThat(cli("tasks", "--state", "PENDING", "-o", "json").json())
                .noneMatch(t -> "answer".equals(t.path("task_guid").asString()));
        assertThat(cli("task", "get", "answer", "-o", "json").json().get(0).path("result").asString())
                .isEqualTo("42\n");

        CliRun broken = cli("task", "submit", "broken", "-m", "16", "--wait", "--", "sh", "-c", "exit 3");
        assertThat(broken.exit()).isEqualTo(1);
        assertThat(broken.err()).startsWith("TaskFailed: broken failed: ");

        assertThat(cli("task", "submit", "slow", "-m", "16", "--", "sh", "-c", "echo started; sleep 60").exit())
                .isZero();
        await().atMost(WAIT).until(() -> cli("task", "logs", "slow").out().contains("[stdout] started"));
        CliRun cancelled = cli("task", "cancel", "slow");
        assertThat(cancelled.out()).isEqualTo("cancelled slow (failed: cancelled)\n");

        assertThat(cli("task", "delete", "answer").exit()).isZero();
        CliRun gone = cli("task", "get", "answer");
        assertThat(gone.exit()).isEqualTo(1);
        assertThat(gone.err()).startsWith("TaskNotFound: ");
    }

    @Test
    @Order(8)
    void deployRollsTheInstancesToANewDefinitionAndRolloutShowsAndUndoesIt() {
        CliRun deployed = cli("deploy", APP, "-e", "GREETING=bonjour", "--min-healthy-time", "1", "--wait");
        assertThat(deployed.exit()).as(deployed.err()).isZero();
        assertThat(deployed.out().lines().toList()).last().asString()
                .startsWith(APP + ": v1 -> v2 SUCCESSFUL, 2/2 updated, 2 healthy, 0 unhealthy; started by cli");
        assertThat(cli("rollout", "status", APP).out()).startsWith(APP + ": v1 -> v2 SUCCESSFUL");
        await().atMost(WAIT).until(() -> cli("logs", APP, "--index", "0").out().contains("bonjour from 0"));

        CliRun nothingUnderWay = cli("rollout", "pause", APP);
        assertThat(nothingUnderWay.exit()).isEqualTo(1);
        assertThat(nothingUnderWay.err()).startsWith("NoActiveDeployment: ");

        CliRun undone = cli("rollout", "undo", APP, "--wait");
        assertThat(undone.exit()).as(undone.err()).isZero();
        JsonNode latest = cli("-o", "json", "rollout", "status", APP).json().get(0);
        assertThat(latest.path("to_version").asInt()).isEqualTo(1);
        assertThat(latest.path("state").asString()).isEqualTo("SUCCESSFUL");
        await().atMost(WAIT).until(() -> running() == 2);
    }

    @Test
    @Order(9)
    void eventsSinceAWhileAgoComeFirstAndAnIdResumesExactlyAfterIt() {
        CliRun past = cli("events", "--since", "10m", "--count", "3", "-o", "json");
        assertThat(past.exit()).as(past.err()).isZero();
        List<JsonNode> three = past.json();
        assertThat(three).hasSize(3).extracting(e -> e.path("id").asString()).isSorted().doesNotHaveDuplicates();

        CliRun resumed = cli("events", "--after", three.get(1).path("id").asString(), "--count", "1", "-o", "json");
        assertThat(resumed.json()).containsExactly(three.get(2));
        assertThat(cli("events", "--since", "10m", "--count", "1").out())
                .matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  \\w+  .+\n");
        CliRun expired = cli("events", "--after", "0000000000000001-0000000000000001", "--count", "1");
        assertThat(expired.exit()).isEqualTo(1);
        assertThat(expired.err()).startsWith("EventsExpired: ").contains("re-list");
    }

    @Test
    @Order(10)
    void drainWaitsUntilTheCellIsDrainedAndUndrainMakesItActiveAgain() {
        await().atMost(WAIT).until(() -> running() == 2);
        String cell = cli("status", APP, "-o", "json").json().get(0).path("cell_id").asString();

        CliRun drained = cli("drain", cell, "--deadline", "2m", "--wait");

        assertThat(drained.exit()).as(drained.err()).isZero();
        assertThat(drained.out()).startsWith(cell + " EVACUATING: ").contains("(asked by cli)")
                .contains(cell + " DRAINED: nothing runs there; it takes no work until drover undrain " + cell);
        await().atMost(WAIT).until(() -> running() == 2);
        assertThat(cli("status", APP, "-o", "json").json()).noneMatch(a -> cell.equals(a.path("cell_id").asString()));
        assertThat(cli("cells").out()).contains("DRAINED");
        JsonNode again = cli("-o", "json", "drain", cell).json().get(0);
        assertThat(again.path("state").asString()).isEqualTo("DRAINED");
        assertThat(again.path("drain").path("instances_left").asInt()).isZero();

        CliRun undrained = cli("undrain", cell, "-o", "json");

        assertThat(undrained.exit()).as(undrained.err()).isZero();
        assertThat(undrained.json().get(0).path("state").asString()).isEqualTo("ACTIVE");
        assertThat(cli("undrain", cell).out()).isEqualTo(cell + " ACTIVE: it takes work\n");
        CliRun unknown = cli("drain", "no-such-cell", "--wait");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).startsWith("CellNotFound: cell not found: no-such-cell");
    }

    @Test
    @Order(11)
    void autoscaleSetsAPolicyStatusShowsItAndOffRemovesIt() {
        CliRun on = cli("autoscale", APP, "--min", "2", "--max", "3", "--cpu", "90", "--scale-down-delay", "5m");
        assertThat(on.exit()).as(on.err()).isZero();
        assertThat(on.out()).isEqualTo("autoscaling " + APP + ": 2-3 instances at cpu 90%\n");
        assertThat(cli("status", APP).out()).contains("autoscaling 2-3 at cpu 90%");
        assertThat(cli("list").out()).contains("AUTOSCALE", "2-3 cpu 90%");
        CliRun outside = cli("scale", APP, "5");
        assertThat(outside.exit()).isEqualTo(1);
        assertThat(outside.err()).startsWith("ResourceConflict: ").contains("autoscaling policy");
        assertThat(cli("autoscale", APP, "--max", "3").exit()).as("no target").isEqualTo(2);
        assertThat(cli("autoscale", APP, "--off").exit()).isZero();
        assertThat(cli("status", APP).out()).doesNotContain("autoscaling");
    }

    @Test
    @Order(12)
    void deleteStopsEverythingAndStatusThenSaysItIsGone() {
        CliRun deleted = cli("delete", APP, "-o", "json");
        assertThat(deleted.exit()).isZero();
        assertThat(deleted.json().get(0).path("deleted").asBoolean()).isTrue();
        await().atMost(WAIT).until(() -> cli("status", APP).exit() == 1);
        assertThat(cli("status", APP).err()).startsWith("DesiredLRPNotFound: ");
        assertThat(cli("logs", APP).exit()).isEqualTo(1);
    }

    private long running() {
        return cli("status", APP, "-o", "json").json().stream()
                .filter(a -> "RUNNING".equals(a.path("state").asString())).count();
    }

    private CliRun cli(String... args) {
        return CliRun.of(env, workDir, args);
    }

    /** The receptor's count of connected event streams, from its Prometheus endpoint. */
    private int sseClients() throws Exception {
        String auth = Base64.getEncoder().encodeToString("cli:cli-secret".getBytes(StandardCharsets.UTF_8));
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(cluster.receptorUrl()
                + "/actuator/prometheus")).header("Authorization", "Basic " + auth).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return metrics.lines().filter(l -> l.startsWith("drover_receptor_sse_clients"))
                .mapToInt(l -> (int) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).findFirst().orElse(0);
    }

    /** A CLI run in the background (follow, events), its output readable while it runs. */
    private record Capture(ByteArrayOutputStream buffer, CompletableFuture<Integer> exit) {

        static Capture start(Map<String, String> env, Path dir, String... args) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8);
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> Drover.run(args, env, dir, out,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false));
            return new Capture(buffer, exit.orTimeout(60, java.util.concurrent.TimeUnit.SECONDS));
        }

        String out() {
            synchronized (buffer) {
                return buffer.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
