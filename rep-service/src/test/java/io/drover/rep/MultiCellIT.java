package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.evacuation.AdminServer;
import io.drover.rep.evacuation.Reachability;
import io.drover.rep.executor.ContainerState;
import io.drover.test.WithDroverInfrastructure;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** One rep process hosting 20 simulated cells in three zones: each its own presence and work; then one drains. */
@SpringBootTest(properties = { "drover.rep.executor=simulated", "drover.rep.simulated-cells=20",
        "drover.rep.zones=z1,z2,z3", "drover.rep.shutdown=keep", "drover.rep.admin.port=0",
        "drover.rep.admin.address=0.0.0.0",
        "drover.rep.admin.exit-after-evacuation=false", "drover.rep.timing.sync-interval=1s",
        "drover.rep.timing.evacuating-sync-interval=300ms", "drover.rep.simulated.start-latency=20ms" })
@WithDroverInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiCellIT {

    static final String PREFIX = "multi-" + UUID.randomUUID().toString().substring(0, 8);

    @DynamicPropertySource
    static void cells(DynamicPropertyRegistry registry) {
        registry.add("drover.rep.cell-id", () -> PREFIX);
    }

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    CellPresence presence;
    @Autowired
    CellAgents agents;
    @Autowired
    AdminServer admin;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    @Order(1)
    void everyCellAnnouncesItselfAndRunsOnlyTheWorkPlacedOnIt() {
        await().atMost(Duration.ofSeconds(20)).until(() -> presence.live().size() == 20);
        assertThat(presence.live().stream().collect(Collectors.groupingBy(Cell::zone, Collectors.counting())))
                .isEqualTo(Map.of("z1", 7L, "z2", 7L, "z3", 6L));
        Lrps lrps = lrps();
        String guid = lrps.desire("spread", 20, 64);

        actual.place(UUID.randomUUID(), java.util.stream.IntStream.range(0, 20).boxed()
                .collect(Collectors.toMap(i -> ActualLrpKey.of(guid, i), i -> cell(i + 1))), Actor.service("test"));

        await().atMost(Duration.ofSeconds(30)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        for (ActualLrp a : lrps.all(guid)) {
            assertThat(a.cellId()).isEqualTo(cell(a.index() + 1));
        }
        for (CellAgent agent : agents.all()) {
            int n = Integer.parseInt(agent.cellId().substring(PREFIX.length() + 1));
            assertThat(agent.executor().containers()).singleElement()
                    .satisfies(c -> assertThat(c.key()).isEqualTo(ActualLrpKey.of(guid, n - 1)));
        }
    }

    @Test
    @Order(2)
    void theWiredAdminPortIsReachableOnLoopbackOnlyWhateverTheConfigurationSays() throws Exception {
        // drover.rep.admin.address=0.0.0.0 is set above: there is no such setting, and nothing binds elsewhere.
        assertThat(admin.address().getAddress().isLoopbackAddress()).isTrue();
        List<InetAddress> external = Reachability.selfReachableNonLoopbackAddresses();
        assumeFalse(external.isEmpty(), "this machine has no non-loopback address that reaches itself");
        assertThat(external).filteredOn(address -> Reachability.accepts(address, admin.port())).isEmpty();
    }

    @Test
    @Order(3)
    void anEvacuatingCellStopsEachOldInstanceOnlyOnceItsReplacementRuns() throws Exception {
        String from = cell(1);
        String to = cell(2);
        Lrps lrps = lrps();
        String guid = lrps.desire("drain", 3, 64);
        lrps.place(guid, from, 0, 1, 2);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        CellAgent draining = agents.agent(from).orElseThrow();
        int toDrain = draining.executor().containers().size();
        Queue<String> whenStopped = new ConcurrentLinkedQueue<>();
        draining.executor().addListener(e -> {
            if (e.container().state() == ContainerState.STOPPED) {
                ActualLrp record = actuals.findById(e.container().key()).orElseThrow();
                whenStopped.add(record.state() + "@" + record.cellId());
            }
        });

        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + admin.port() + "/evacuate?cell=" + from))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.body()).contains(from);
        await("each instance keeps serving from an evacuating twin").atMost(Duration.ofSeconds(30))
                .until(() -> actuals.findEvacuatingByProcessGuid(guid).size() == 3);
        assertThat(actuals.findEvacuatingByProcessGuid(guid)).allSatisfy(twin -> {
            assertThat(twin.cellId()).isEqualTo(from);
            assertThat(twin.netInfo()).isNotNull();
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            auctionUnplacedOnto(to);
            return draining.drained().isDone();
        });
        assertThat(whenStopped).hasSize(toDrain).allMatch(s -> s.equals("RUNNING@" + to));
        assertThat(lrps.all(guid)).allMatch(a -> a.state() == ActualLrpState.RUNNING && to.equals(a.cellId()));
        assertThat(presence.find(from)).isEmpty();
        assertThat(actuals.findEvacuatingByProcessGuid(guid)).as("the twins went with the old containers").isEmpty();
    }

    @Test
    @Order(4)
    void aStopWhoseMessageWasLostIsRepeatedByTheCellsSync() {
        String on = cell(3);
        Lrps lrps = lrps();
        String guid = lrps.desire("restart", 1, 64);
        lrps.place(guid, on, 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        String instance = lrps.all(guid).get(0).instanceGuid();

        // What a retire writes, without its stop message (lost with a rep that crashed after committing its offset).
        jdbc.update("UPDATE actual_lrps SET stop_requested = 'restarted by user', version = version + 1 "
                + "WHERE process_guid = ? AND instance_index = 0", guid);

        await().atMost(Duration.ofSeconds(30)).until(() -> actuals.findById(ActualLrpKey.of(guid, 0)).isEmpty()
                && agents.agent(on).orElseThrow().executor().container(instance).isEmpty());
        assertThat(jdbc.queryForObject("SELECT reason FROM lrp_events WHERE process_guid = ? AND event_type = "
                + "'actual_lrp_removed'", String.class, guid)).isEqualTo("stop requested: restarted by user");
    }

    /** Plays the auctioneer (another service): every instance waiting for a cell is placed on {@code cellId}. */
    private void auctionUnplacedOnto(String cellId) {
        List<ActualLrpKey> waiting = jdbc.query("SELECT process_guid, instance_index FROM actual_lrps "
                + "WHERE state = 'UNCLAIMED' AND placed_cell_id IS NULL",
                (rs, i) -> ActualLrpKey.of(rs.getString(1), rs.getInt(2)));
        if (!waiting.isEmpty()) {
            actual.place(UUID.randomUUID(), waiting.stream().collect(Collectors.toMap(k -> k, k -> cellId)),
                    Actor.service("test-auctioneer"));
        }
    }

    private Lrps lrps() {
        return new Lrps(desired, actual, actuals);
    }

    private static String cell(int n) {
        return PREFIX + "-" + n;
    }
}
