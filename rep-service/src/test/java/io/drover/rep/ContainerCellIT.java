package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.CellIsolation;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.Action;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.CheckDefinition;
import io.drover.model.lrp.CheckDefinition.Check;
import io.drover.model.lrp.DesiredLrpDefinition;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.RunAction;
import io.drover.rep.executor.container.ContainerHarness;
import io.drover.test.WithDroverInfrastructure;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A rep with {@code drover.rep.executor=container} on a real runtime, database and broker (issue 43): its cell
 * registers isolation CONTAINERS, and a placed instance runs in a container of its own, healthy on its container port
 * and answering on its host port, until it is retired and nothing of it is left on the cell.
 */
@SpringBootTest(properties = { "drover.rep.executor=container", "drover.rep.shutdown=keep",
        "drover.rep.admin.port=0", "drover.rep.admin.exit-after-evacuation=false", "drover.rep.logs.enabled=false",
        "drover.rep.capacity.memory-mb=4096", "drover.rep.capacity.disk-mb=8192",
        "drover.rep.capacity.containers=20", "drover.rep.timing.sync-interval=500ms",
        "drover.rep.process.host-port-range=64000-64499", "drover.rep.container.rootfs-dir=/var/lib/drover/rootfs" })
@WithDroverInfrastructure
class ContainerCellIT {

    static final String CELL = "containers-" + UUID.randomUUID().toString().substring(0, 8);

    static final Path RUN = Path.of(System.getProperty("java.io.tmpdir"), "drover-container-cell-it-"
            + ProcessHandle.current().pid());

    @BeforeAll
    static void runtime() {
        ContainerHarness.requireRuntime();
    }

    @DynamicPropertySource
    static void cell(DynamicPropertyRegistry registry) {
        registry.add("drover.rep.cell-id", () -> CELL);
        registry.add("drover.rep.process.work-dir", () -> RUN.resolve("cells").toString());
        registry.add("drover.rep.process.cgroup-root", () -> "drover-it-" + ProcessHandle.current().pid());
        registry.add("drover.rep.container.state-dir", () -> RUN.resolve("runtime").toString());
        registry.add("drover.rep.container.bundle-dir", () -> RUN.resolve("bundles").toString());
        registry.add("drover.rep.container.disk-dir", () -> RUN.resolve("disks").toString());
    }

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence presence;

    @Test
    void aContainerCellRunsAPlacedInstanceInItsOwnContainerReachableOnItsHostPort() throws Exception {
        await().atMost(Duration.ofSeconds(20)).until(() -> presence.find(CELL).isPresent());
        assertThat(presence.find(CELL).orElseThrow().registration().isolation()).isEqualTo(CellIsolation.CONTAINERS);

        Lrps lrps = new Lrps(desired, actual, actuals);
        String guid = "web-" + UUID.randomUUID().toString().substring(0, 8);
        desired.desire(new DesiredLrpDefinition(guid, "d1", "preloaded:host", 1, new Action(new RunAction("sh",
                List.of("-c", "hostname > index.html && exec python3 -m http.server $PORT"), null, null, null)),
                null, new CheckDefinition(List.of(new Check(null, new CheckDefinition.HttpCheck(8080, "/", 1000)))),
                30, null, List.of(8080), 128, 64, 0, 0, null, null, null, null, null), Lrps.TEST);
        lrps.place(guid, CELL, 0);

        await().atMost(Duration.ofSeconds(30)).until(() -> lrps.find(guid, 0)
                .filter(a -> a.state() == ActualLrpState.RUNNING).isPresent());
        ActualLrp running = lrps.find(guid, 0).orElseThrow();
        int hostPort = running.netInfo().ports().get(0).hostPort();
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + hostPort + "/index.html")
                .toURL().openConnection();
        assertThat(connection.getResponseCode()).isEqualTo(200);
        assertThat(new String(connection.getInputStream().readAllBytes()).strip())
                .as("the container's hostname").isEqualTo(running.instanceGuid());

        actual.retire(List.of(ActualLrpKey.of(guid, 0)), "scaled down", Lrps.TEST);
        // the bundle goes when the container is gone, its disk once the rep has recorded that and forgets it
        await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(RUN.resolve("bundles").resolve(CELL)
                .resolve(running.instanceGuid())) && !Files.readString(Path.of("/proc/self/mountinfo"))
                        .contains(RUN.toString()));
    }
}
