package io.drover.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * SPEC 12, a rep dying: three process cells whose reps leave their processes running when they go (shutdown KEEP, as
 * after a kill -9 of the rep alone). The instances of the dead rep's cell are replaced elsewhere; when a rep with the
 * same cell id comes back it adopts what it left and stops what is now owned by others, so no duplicate is left.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RepKilledIT {

    private static final String MARKER = "drover-reliability-rep-killed";
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
        cluster = LocalCluster.start(new LocalClusterSettings(dataDir, true, 0, 3, 0, "rel", PASSWORD, properties));
        api = new Api(cluster);
        invariants = new ClusterInvariants(cluster);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.cells().size() == 3);
    }

    @AfterAll
    void stopCluster() {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            // Shutdown KEEP leaves the workloads running by design: this test's own processes go here.
            ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(MARKER))
                    .forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aDeadRepsInstancesRunElsewhereAndItsReturnLeavesNoDuplicate() {
        String guid = "victim";
        assertThat(api.desire(Api.lrp(guid, 3, 16, "preloaded:host", "sh", "-c", "while true; do sleep 1; done",
                MARKER))).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.running(guid).size() == 3 && processes() == 3);
        String victim = api.running(guid).get(0).path("cell_id").asString();
        int cell = Integer.parseInt(victim.substring(victim.length() - 1)) - 1;

        cluster.stopCell(cell);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> running = api.running(guid);
            return running.size() == 3 && running.stream().noneMatch(a -> victim.equals(a.path("cell_id").asString()));
        });
        assertThat(processes()).as("the dead rep's process is still running, unowned").isEqualTo(4);

        cluster.startCell(cell);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(invariants.violations()).isEmpty();
            assertThat(processes()).isEqualTo(3);
        });
    }

    @Test
    void theReceptorPasswordNeverAppearsInTheLogs(CapturedOutput output) {
        assertThat(api.cells()).hasSize(3);
        assertThat(output.getAll()).contains("receptor").doesNotContain(PASSWORD)
                .doesNotContain("Using generated security password");
    }

    private static long processes() {
        return ProcessHandle.allProcesses().filter(p -> commandLine(p).contains(MARKER)).count();
    }

    private static String commandLine(ProcessHandle p) {
        return p.info().commandLine().orElse("");
    }
}
