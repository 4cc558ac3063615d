package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.rep.agent.CellAgents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 12, a rep dying: three process cells whose reps leave their processes running when they go (shutdown KEEP, as
 * after a kill -9 of the rep alone). The instances of the dead rep's cell are replaced elsewhere; when a rep with the
 * same cell id comes back it adopts what it left and stops what is now owned by others, so no duplicate is left.
 * Second variant: the rep's processes die with it (the machine went down), unseen by any rep; the rep that comes back
 * finds only their pid files, must not take them for running work, and cleans them up. Last, a new rep started while
 * the broker is down starts all the same and takes work once the broker is back.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RepKilledIT {

    /**
     * The last argument of this run's workloads, by which the test counts their processes machine-wide: unique to the
     * run, so that a process an earlier run on the same machine left behind (killed before its cleanup) is not counted.
     */
    private static final String MARKER = "drover-reliability-rep-killed-" + Long.toHexString(System.nanoTime());
    private static final String MARKER_DIES = MARKER + "-dies";
    private static final String PASSWORD = "rel-Secret-4f1c9a";

    @TempDir
    static Path dataDir;

    private LocalCluster cluster;
    private Api api;
    private ClusterInvariants invariants;

    @BeforeAll
    void startCluster() {
        Map<String, String> properties = new HashMap<>(LocalClusterEndToEndIT.EndToEndSettings.FAST);
        properties.put("drover.rep.shutdown", "keep");
        // A rep started while the broker is down waits this long for its topics before it carries on without them.
        properties.put("spring.kafka.admin.operation-timeout", "3s");
        ClusterUnderTest started = ClusterUnderTest.start(
                new LocalClusterSettings(dataDir, true, 0, 3, 0, "rel", PASSWORD, properties));
        cluster = started.cluster();
        api = started.api();
        invariants = started.invariants();
    }

    @AfterAll
    void stopCluster() {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            // Shutdown KEEP leaves the workloads running by design: this run's own processes go here (not another
            // run's beside it), and their cgroups once they are gone.
            ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(MARKER))
                    .forEach(ProcessHandle::destroyForcibly);
            TestCgroups.removeOnceEmpty();
        }
    }

    @Test
    void aDeadRepsInstancesRunElsewhereAndItsReturnLeavesNoDuplicate() {
        String guid = "victim";
        assertThat(api.desire(Api.lrp(guid, 3, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done",
                MARKER))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 3 && processes(MARKER) == 3);
        String victim = api.running(guid).get(0).path("cell_id").asString();
        int cell = Integer.parseInt(victim.substring(victim.length() - 1)) - 1;

        cluster.stopCell(cell);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> running = api.running(guid);
            return running.size() == 3 && running.stream().noneMatch(a -> victim.equals(a.path("cell_id").asString()));
        });
        assertThat(processes(MARKER)).as("the dead rep's process is still running, unowned").isEqualTo(4);

        cluster.startCell(cell);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(invariants.violations()).isEmpty();
            assertThat(processes(MARKER)).isEqualTo(3);
        });
    }

    @Test
    void aRepWhoseProcessesDiedWithItIsReplacedAndCleansUpItsPidFilesOnReturn() throws IOException {
        String guid = "perished";
        assertThat(api.desire(Api.lrp(guid, 3, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done",
                MARKER_DIES))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> api.running(guid).size() == 3 && processes(MARKER_DIES) == 3);
        JsonNode dead = api.running(guid).get(0);
        String victim = dead.path("cell_id").asString();
        String deadInstance = dead.path("instance_guid").asString();
        int cell = Integer.parseInt(victim.substring(victim.length() - 1)) - 1;
        Path cellDir = dataDir.resolve("cells").resolve(victim).toRealPath();

        // The machine goes: the rep stops without a word (shutdown mode KEEP) and every process under its work directory
        // dies with it.
        cluster.stopCell(cell);
        ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(MARKER_DIES) && workingIn(p, cellDir))
                .forEach(p -> {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                });
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> running = api.running(guid);
            return running.size() == 3 && running.stream().noneMatch(a -> victim.equals(a.path("cell_id").asString()));
        });
        assertThat(processes(MARKER_DIES)).as("only the replacements run").isEqualTo(3);
        assertThat(instanceDirs(cellDir)).as("the dead instance's pid file is still there").contains(deadInstance);

        cluster.startCell(cell);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(instanceDirs(cellDir)).as("stale pid files of " + victim).doesNotContain(deadInstance);
            assertThat(invariants.violations()).isEmpty();
            assertThat(processes(MARKER_DIES)).isEqualTo(3);
        });
        assertThat(cluster.reps().get(cell).getBean(CellAgents.class).agent(victim).orElseThrow().executor()
                .container(deadInstance)).as("the returned rep holds no container for the dead instance").isEmpty();
    }

    /** The instance directories (named after their instance guids) under a process cell's work directory. */
    private static List<String> instanceDirs(Path cellWorkDir) throws IOException {
        Path dir = cellWorkDir.resolve(cellWorkDir.getFileName());
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.list(dir)) {
            return dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).toList();
        }
    }

    private static boolean workingIn(ProcessHandle p, Path dir) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "cwd")).startsWith(dir);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Last: it adds a fourth cell, in zone z4. */
    @Test
    @Order(Integer.MAX_VALUE)
    void aRepStartedWhileTheBrokerIsDownComesUpAndTakesWorkOnceItIsBack() {
        cluster.stopKafka();
        int cell;
        try {
            cell = cluster.addCell();
            await().atMost(Duration.ofSeconds(15)).until(() -> api.cells().size() == 4);
        } finally {
            cluster.startKafka();
        }
        String guid = "newcomer";
        assertThat(api.desire(Api.lrp(guid, 4, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done",
                MARKER + "-newcomer"))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(api.running(guid)).extracting(a -> a.path("cell_id").asString())
                    .containsExactlyInAnyOrder("cell-z1", "cell-z2", "cell-z3", "cell-z" + (cell + 1));
            assertThat(invariants.violations()).isEmpty();
        });
    }

    @Test
    void theReceptorPasswordNeverAppearsInTheLogs(CapturedOutput output) {
        assertThat(api.cells()).hasSize(3);
        assertThat(output.getAll()).contains("receptor").doesNotContain(PASSWORD)
                .doesNotContain("Using generated security password");
    }

    /** Live processes whose command line ends with {@code marker} (the last argument of the test's workloads). */
    private static long processes(String marker) {
        return ProcessHandle.allProcesses().filter(p -> commandLine(p).endsWith(" " + marker)).count();
    }

    private static String commandLine(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }
}
