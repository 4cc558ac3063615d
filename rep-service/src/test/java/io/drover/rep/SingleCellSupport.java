package io.drover.rep;

import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.executor.simulated.SimulatedExecutor;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.test.WithDroverInfrastructure;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One rep with one simulated cell against the real database and broker; its ITs share this context. The cell id is
 * unique per JVM run because every context shares the broker's topics.
 */
@SpringBootTest(properties = { "drover.rep.executor=simulated", "drover.rep.shutdown=keep",
        "drover.rep.admin.port=0", "drover.rep.admin.exit-after-evacuation=false",
        "drover.rep.capacity.memory-mb=4096", "drover.rep.capacity.disk-mb=8192",
        "drover.rep.capacity.containers=50", "drover.rep.timing.sync-interval=500ms",
        "drover.rep.simulated.start-latency=20ms", "drover.rep.simulated.start-jitter=0ms",
        "drover.rep.usage.interval=300ms", "drover.rep.timing.deregistration-delay=1s" })
@WithDroverInfrastructure
abstract class SingleCellSupport {

    static final String CELL = "single-" + UUID.randomUUID().toString().substring(0, 8);

    @DynamicPropertySource
    static void cell(DynamicPropertyRegistry registry) {
        registry.add("drover.rep.cell-id", () -> CELL);
    }

    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    ActualLrpRepository actuals;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    SimulatedExecutorFactory executors;
    @Autowired
    CellAgents agents;

    Lrps lrps;

    @BeforeEach
    void fixtures() {
        lrps = new Lrps(desired, actual, actuals);
    }

    SimulatedExecutor executor() {
        return executors.executor(CELL).orElseThrow();
    }

    /** What the cell's log server finds for this container guid: a live container's log, or a gone one's last lines. */
    java.util.Optional<io.drover.rep.executor.InstanceLog> logOf(String instanceGuid) {
        return agents.agent(CELL).orElseThrow().executors().stream().flatMap(e -> e.log(instanceGuid).stream())
                .findFirst();
    }
}
