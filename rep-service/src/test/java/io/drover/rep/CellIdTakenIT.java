package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.rep.agent.CellAgents;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedProperties;
import io.drover.test.TestBackend;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.ExitCodeEvent;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * One cell id, two rep processes (two contexts, each with its own identity, as two machines configured alike would
 * be): the one that comes second while the first is alive is refused and touches nothing of the first's; one that
 * comes after its predecessor died waits until that presence expires, then takes the cell over (docs/rep.md).
 */
@ExtendWith(OutputCaptureExtension.class)
class CellIdTakenIT {

    private final String cell = "taken-" + UUID.randomUUID().toString().substring(0, 8);
    private final TestBackend backend = TestBackend.current();
    private final String database = backend.postgres().createDatabase();
    private final JdbcTemplate db = new JdbcTemplate(new DriverManagerDataSource(database,
            backend.postgres().username(), backend.postgres().password()));

    @Test
    void aSecondRepForACellIdALiveRepHoldsIsRefusedInOneLineAndTouchesNothingOfTheFirsts(CapturedOutput output) {
        SimulatedExecutorFactory firstMachine = new SimulatedExecutorFactory(SimulatedProperties.instant());
        SimulatedExecutorFactory secondMachine = new SimulatedExecutorFactory(SimulatedProperties.instant());
        AtomicInteger exitCode = new AtomicInteger();
        try (ConfigurableApplicationContext first = rep(firstMachine, null, "3s")) {
            Lrps lrps = lrps(first);
            String guid = lrps.desire("held", 2, 64);
            lrps.place(guid, cell, 0, 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                    .filter(a -> a.state() == ActualLrpState.RUNNING).count() == 2);
            Map<Integer, String> before = records(lrps, guid);

            try (ConfigurableApplicationContext second = rep(secondMachine, exitCode, "3s")) {
                await().atMost(Duration.ofSeconds(20)).until(() -> !second.isActive() || !records(lrps, guid)
                        .equals(before));
                assertThat(records(lrps, guid)).as("the first rep's records, untouched").isEqualTo(before);
                assertThat(second.isActive()).as("a rep of one cell ends when its cell id is taken").isFalse();
            }
            assertThat(exitCode.get()).as("and says so in its exit code").isEqualTo(1);
            assertThat(output.getAll().lines().filter(l -> l.contains("cell-id-taken cell=" + cell + " held_by=")
                    && l.contains(" until="))).hasSize(1);

            Instant beatBefore = heartbeatAt();
            await().atMost(Duration.ofSeconds(5)).until(() -> heartbeatAt().isAfter(beatBefore));
            assertThat(records(lrps, guid)).isEqualTo(before);
            assertThat(firstMachine.executor(cell).orElseThrow().containers()).hasSize(2);
        } finally {
            firstMachine.close();
            secondMachine.close();
        }
    }

    @Test
    void aRepRestartedWhileItsDeadPredecessorsPresenceLastsWaitsForItToExpireThenTakesOver(CapturedOutput output) {
        SimulatedExecutorFactory machine = new SimulatedExecutorFactory(SimulatedProperties.instant());
        try (ConfigurableApplicationContext dead = rep(machine, null, "30s")) {
            Lrps lrps = lrps(dead);
            String guid = lrps.desire("survivor", 2, 64);
            lrps.place(guid, cell, 0, 1);
            await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                    .filter(a -> a.state() == ActualLrpState.RUNNING).count() == 2);
            Map<Integer, String> before = records(lrps, guid);

            dead.getBean(CellAgents.class).stop(); // as kill -9 leaves it: no more heartbeats, the presence unreleased
            Instant lastBeat = heartbeatAt();
            await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).until(() -> heartbeatAt()
                    .equals(lastBeat));
            Instant expires = expiresAt();

            try (ConfigurableApplicationContext restarted = rep(machine, null, "30s")) {
                // a presence of 30 s: on a loaded machine the restarted rep may take over 10 s to start
                await().atMost(Duration.ofSeconds(25)).until(() -> output.getAll().contains("cell-id-held cell=" + cell));
                assertThat(heartbeatAt()).as("no heartbeat while the dead rep's presence lasts").isEqualTo(lastBeat);
                assertThat(Instant.now()).isBefore(expires);

                await().atMost(Duration.ofSeconds(45)).until(() -> heartbeatAt().isAfter(expires.minusMillis(1)));
                await().atMost(Duration.ofSeconds(15)).until(() -> syncs(restarted) >= 2);
                assertThat(records(lrps, guid)).as("the containers adopted, their records kept").isEqualTo(before);
                assertThat(output.getAll()).contains("cell-id-taken-over cell=" + cell);
            }
        } finally {
            machine.close();
        }
    }

    @Test
    void aRepRestartedRightAfterACleanStopTakesItsCellOverAtOnce(CapturedOutput output) {
        SimulatedExecutorFactory machine = new SimulatedExecutorFactory(SimulatedProperties.instant());
        try {
            try (ConfigurableApplicationContext stopped = rep(machine, null, "10s")) {
                await().atMost(Duration.ofSeconds(10)).until(() -> db.queryForObject(
                        "SELECT count(*) FROM cells WHERE cell_id = ?", Integer.class, cell) == 1);
            }
            Instant stopped = heartbeatAt();
            try (ConfigurableApplicationContext restarted = rep(machine, null, "10s")) {
                await().atMost(Duration.ofSeconds(5)).until(() -> heartbeatAt().isAfter(stopped));
                assertThat(output.getAll()).doesNotContain("cell-id-held cell=" + cell);
            }
        } finally {
            machine.close();
        }
    }

    private ConfigurableApplicationContext rep(SimulatedExecutorFactory containers, AtomicInteger exitCode,
            String presenceTtl) {
        SpringApplicationBuilder builder = new SpringApplicationBuilder(RepApplication.class)
                .web(WebApplicationType.NONE)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("sharedContainers", containers))
                .properties(Map.ofEntries(Map.entry("spring.datasource.url", database),
                        Map.entry("spring.datasource.username", backend.postgres().username()),
                        Map.entry("spring.datasource.password", backend.postgres().password()),
                        Map.entry("spring.kafka.bootstrap-servers", backend.kafkaBootstrapServers()),
                        Map.entry("drover.rep.executor", "simulated"), Map.entry("drover.rep.cell-id", cell),
                        Map.entry("drover.rep.shutdown", "keep"), Map.entry("drover.rep.admin.enabled", "false"),
                        Map.entry("drover.rep.timing.heartbeat-interval", "300ms"),
                        Map.entry("drover.rep.timing.presence-ttl", presenceTtl),
                        Map.entry("drover.rep.timing.sync-interval", "300ms")));
        if (exitCode != null) {
            builder.listeners((ApplicationListener<ExitCodeEvent>) e -> exitCode.set(e.getExitCode()));
        }
        return builder.run();
    }

    private Instant heartbeatAt() {
        return db.queryForObject("SELECT heartbeat_at FROM cells WHERE cell_id = ?", Timestamp.class, cell)
                .toInstant();
    }

    private Instant expiresAt() {
        return db.queryForObject("SELECT expires_at FROM cells WHERE cell_id = ?", Timestamp.class, cell).toInstant();
    }

    /** Each record as index -> state, owner and version: any write shows. */
    private static Map<Integer, String> records(Lrps lrps, String guid) {
        return lrps.all(guid).stream().collect(Collectors.toMap(ActualLrp::index,
                a -> a.state() + " " + a.instanceGuid() + "@" + a.cellId() + " v" + a.version()));
    }

    private static Lrps lrps(ConfigurableApplicationContext context) {
        return new Lrps(context.getBean(DesiredLrpLifecycle.class), context.getBean(ActualLrpLifecycle.class),
                context.getBean(ActualLrpRepository.class));
    }

    private static long syncs(ConfigurableApplicationContext context) {
        var timer = context.getBean(io.micrometer.core.instrument.MeterRegistry.class)
                .find("drover.rep.sync.duration").timer();
        return timer == null ? 0 : timer.count();
    }
}
