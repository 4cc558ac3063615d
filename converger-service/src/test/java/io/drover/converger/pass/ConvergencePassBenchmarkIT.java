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

/**
 * SPEC 11 P2 from the converger's side: one full pass (snapshot read, plan, execute) over 100,000 RUNNING actual LRPs
 * with nothing to do. Slow to set up, so opt-in: {@code -Ddrover.benchmark=true}. Prints the figures.
 */
@SpringBootTest(properties = { "server.port=0", "drover.converger.interval=1h",
        "drover.converger.desired-change-delay=1h" })
@WithDroverInfrastructure
@EnabledIfSystemProperty(named = "drover.benchmark", matches = "true")
class ConvergencePassBenchmarkIT {

    private static final int LRPS = 10;
    private static final int INSTANCES = 10_000;
    private static final int CELLS = 100;

    @Autowired
    ConvergencePass pass;
    @Autowired
    DesiredLrpLifecycle desired;
    @Autowired
    ActualLrpLifecycle actual;
    @Autowired
    CellPresence cells;

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
                if (started.size() == 2_000) {
                    actual.start(started, Actor.service("benchmark"));
                    started.clear();
                }
            }
        }

        for (int run = 1; run <= 3; run++) {
            PassReport report = pass.run("benchmark");
            System.out.printf("convergence-pass-benchmark run=%d actuals=%d read_ms=%d plan_ms=%d execute_ms=%d "
                    + "total_ms=%d actions=%d%n", run, report.actuals(), report.read().toMillis(),
                    report.planning().toMillis(), report.executing().toMillis(), report.total().toMillis(),
                    report.plan().totalActions());
            assertThat(report.actuals()).isEqualTo(LRPS * INSTANCES);
            assertThat(report.plan().isEmpty()).isTrue();
        }
    }
}
