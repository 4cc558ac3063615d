package io.drover.converger.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.Actor;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.lrp.InstanceOwner;
import io.drover.model.lrp.NetInfo;
import io.drover.model.lrp.StartedInstance;
import io.drover.test.WithDroverInfrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * SPEC 11 P2 from the converger's side: one full pass (snapshot read, plan, execute) over 100,000 RUNNING actual LRPs
 * with nothing to do. Slow to set up, so opt-in: {@code -Ddrover.benchmark=true}. Prints the figures. Issue 41's
 * million: {@code -Ddrover.benchmark.lrps=1000 -Ddrover.benchmark.instances=1000 -Ddrover.benchmark.cells=1000}
 * (a few minutes to set up).
 */
@SpringBootTest(properties = { "server.port=0", "drover.converger.interval=1h",
        "drover.converger.desired-change-delay=1h" })
@WithDroverInfrastructure
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class ConvergencePassBenchmarkIT {

    private static final int LRPS = Integer.getInteger("drover.benchmark.lrps", 10);
    private static final int INSTANCES = Integer.getInteger("drover.benchmark.instances", 10_000);
    private static final int CELLS = Integer.getInteger("drover.benchmark.cells", 100);

    @Autowired
    ConvergencePass pass;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    CellPresence cells;

    @Autowired
    JdbcTemplate jdbc;

    /** The plans of the pass's reads: nothing unsettled, then one cell gone (1/CELLS of the rows) and one LRP uneven. */
    private void explain(String when) {
        String unsettled = "SELECT process_guid, instance_index FROM actual_lrps WHERE cell_id IS NULL OR ";
        for (String sql : List.of("SELECT process_guid, count(*), max(instance_index) FROM actual_lrps GROUP BY "
                + "process_guid", unsettled + "cell_id = ANY ('{}') OR process_guid = ANY ('{}')",
                unsettled + "cell_id = ANY ('{bench-cell-0}') OR process_guid = ANY ('{bench-1}')")) {
            System.out.println("convergence-pass-benchmark explain " + when + ": " + String.join("\n",
                    jdbc.queryForList("EXPLAIN (ANALYZE, BUFFERS) " + sql, String.class)));
        }
    }

    @Test
    void onePassOverAHundredThousandRunningActualsWithNothingToDo() {
        LrpFixtures fixtures = new LrpFixtures(desired, actual, cells);
        for (int c = 0; c < CELLS; c++) {
            fixtures.heartbeat("bench-cell-" + c, Duration.ofHours(1));
        }
        for (int l = 0; l < LRPS; l++) {
            String guid = "bench-" + l;
            fixtures.desire(guid, INSTANCES);
            List<StartedInstance> started = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                String cell = "bench-cell-" + (i % CELLS);
                started.add(new StartedInstance(ActualLrpKey.of(guid, i), LrpFixtures.DOMAIN,
                        InstanceOwner.of(UUID.randomUUID().toString(), cell),
                        new NetInfo("10.0.0.1", List.of(new NetInfo.PortMapping(8080, 61000)))));
                if (started.size() == 2_000 || i == INSTANCES - 1) {
                    actual.start(started, Actor.service("benchmark"));
                    started.clear();
                }
            }
        }

        explain("before vacuum");
        jdbc.execute("VACUUM ANALYZE actual_lrps");
        explain("after vacuum");
        for (int run = 1; run <= 3; run++) {
            PassReport report = pass.run("benchmark");
            System.out.printf("convergence-pass-benchmark run=%d actuals=%d read_ms=%d plan_ms=%d execute_ms=%d "
                    + "total_ms=%d actions=%d%n", run, report.actuals(), report.read().toMillis(),
                    report.planning().toMillis(), report.executing().toMillis(), report.total().toMillis(),
                    report.plan().totalActions());
            Runtime.getRuntime().gc();
            System.out.printf("convergence-pass-benchmark heap_after_gc_mb=%d%n", (Runtime.getRuntime().totalMemory()
                    - Runtime.getRuntime().freeMemory()) >> 20);
            assertThat(report.actuals()).isEqualTo(LRPS * INSTANCES);
            assertThat(report.plan().isEmpty()).isTrue();
        }
    }
}
