package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.cell.Cell;
import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.cell.CellState;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskState;
import io.drover.rep.agent.CellAgent;
import io.drover.rep.agent.CellAgents;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
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

/**
 * An operator's drain (SPEC 18) as the rep carries it out: the order is on the cell's row and reaches the rep with its
 * heartbeats. The cell hands every instance over as SPEC 8.5 does, then stays DRAINED, heartbeating and turning work
 * away, instead of leaving; undrained, it takes work again; at the deadline what still runs is stopped and its tasks
 * fail saying why.
 */
@SpringBootTest(properties = { "drover.rep.executor=simulated", "drover.rep.simulated-cells=3",
        "drover.rep.zones=z1", "drover.rep.shutdown=keep", "drover.rep.admin.enabled=false",
        "drover.rep.timing.heartbeat-interval=300ms", "drover.rep.timing.sync-interval=1s",
        "drover.rep.timing.evacuating-sync-interval=300ms", "drover.rep.timing.evacuation-deadline=1m",
        "drover.rep.simulated.start-latency=20ms", "drover.rep.simulated.task-step=1s" })
@WithDroverInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorDrainIT {

    static final String PREFIX = "ordered-" + UUID.randomUUID().toString().substring(0, 8);
    static final Actor RECEPTOR = Actor.service("receptor");

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
    TaskLifecycle taskLifecycle;
    @Autowired
    TaskReads taskReads;
    @Autowired
    CellPresence presence;
    @Autowired
    CellDrains drains;
    @Autowired
    CellAgents agents;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    @Order(1)
    void aCellOrderedToDrainHandsEveryInstanceOverThenStaysDrainedHeartbeatingAndTurningWorkAway() {
        String from = cell(1);
        String to = cell(2);
        await().atMost(Duration.ofSeconds(20)).until(() -> presence.live().stream().map(Cell::cellId)
                .filter(c -> c.startsWith(PREFIX)).count() == 3);
        assertThat(jdbc.queryForObject("SELECT evacuation_deadline_s FROM cells WHERE cell_id = ?", Integer.class,
                from)).as("the rep says how long its drains may take").isEqualTo(60);
        Lrps lrps = lrps();
        String guid = lrps.desire("ordered", 3, 64);
        lrps.place(guid, from, 0, 1, 2);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));
        CellAgent draining = agents.agent(from).orElseThrow();

        drains.drain(from, null, "ops", RECEPTOR);

        await("each instance keeps serving from an evacuating twin").atMost(Duration.ofSeconds(30))
                .until(() -> actuals.findEvacuatingByProcessGuid(guid).size() == 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            auctionUnplacedOnto(to);
            return presence.find(from).orElseThrow().state() == CellState.DRAINED;
        });
        assertThat(lrps.all(guid)).allMatch(a -> a.state() == ActualLrpState.RUNNING && to.equals(a.cellId()));
        assertThat(actuals.findEvacuatingByProcessGuid(guid)).as("the twins went with the old containers").isEmpty();
        assertThat(draining.executor().containers()).isEmpty();
        assertThat(draining.drained()).as("an operator's drain does not end the cell").isNotDone();
        Instant beat = presence.find(from).orElseThrow().heartbeatAt();
        await("a drained cell heartbeats").atMost(Duration.ofSeconds(10))
                .until(() -> presence.find(from).orElseThrow().heartbeatAt().isAfter(beat));
        assertThat(presence.find(from).orElseThrow().state()).isEqualTo(CellState.DRAINED);

        String late = lrps.desire("late", 1, 64);
        lrps.place(late, from, 0);
        await("work placed on a drained cell is turned away").atMost(Duration.ofSeconds(20))
                .until(() -> "cell is evacuating".equals(lrps.find(late, 0).orElseThrow().placementError()));
        assertThat(draining.executor().containers()).isEmpty();
    }

    @Test
    @Order(2)
    void anUndrainedCellTakesWorkAgainAtOnce() {
        String cell = cell(1);
        assertThat(presence.find(cell).orElseThrow().state()).isEqualTo(CellState.DRAINED);

        assertThat(drains.undrain(cell, "ops", RECEPTOR).state()).isEqualTo(CellState.ACTIVE);

        Lrps lrps = lrps();
        String guid = lrps.desire("undrained", 1, 64);
        lrps.place(guid, cell, 0);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0)
                .filter(a -> a.state() == ActualLrpState.RUNNING && cell.equals(a.cellId())).isPresent());
        await("its rep says so too").atMost(Duration.ofSeconds(10))
                .until(() -> presence.find(cell).orElseThrow().reported() == CellState.ACTIVE);
    }

    @Test
    @Order(3)
    void atTheDeadlineWhatStillRunsIsStoppedAndItsTasksFailSayingWhy() {
        String cell = cell(3);
        Lrps lrps = lrps();
        String guid = lrps.desire("stranded", 1, 64);
        lrps.place(guid, cell, 0);
        Tasks tasks = new Tasks(taskLifecycle, taskReads);
        String task = tasks.submit("long", Tasks.steps(120), null);
        tasks.place(task, cell);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.find(guid, 0).orElseThrow().state()
                == ActualLrpState.RUNNING && tasks.find(task).state() == TaskState.RUNNING);

        // nobody places the instance's replacement: only the deadline ends its old container
        drains.drain(cell, Duration.ofSeconds(2), "ops", RECEPTOR);

        await().atMost(Duration.ofSeconds(30)).until(() -> presence.find(cell).orElseThrow().state()
                == CellState.DRAINED);
        assertThat(tasks.find(task).state()).isEqualTo(TaskState.COMPLETED);
        assertThat(tasks.find(task).failed()).isTrue();
        assertThat(tasks.find(task).failureReason()).isEqualTo("cell evacuated before completion");
        assertThat(actuals.findEvacuatingByProcessGuid(guid)).isEmpty();
        assertThat(agents.agent(cell).orElseThrow().executors()).allMatch(e -> e.containers().isEmpty());
    }

    /** Plays the auctioneer (another service): every instance waiting for a cell is placed on {@code cellId}. */
    private void auctionUnplacedOnto(String cellId) {
        List<ActualLrpKey> waiting = jdbc.query("SELECT process_guid, instance_index FROM actual_lrps "
                + "WHERE state = 'UNCLAIMED' AND placed_cell_id IS NULL AND process_guid LIKE 'ordered-%'",
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
