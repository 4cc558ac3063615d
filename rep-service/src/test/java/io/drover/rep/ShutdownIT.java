package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedProperties;
import io.drover.test.TestBackend;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * SIGTERM (the JVM's shutdown hook closes the context) drains the cell before the rep goes: records are handed back
 * for auction at once, and with no other cell to take them the old containers keep serving until the deadline.
 */
class ShutdownIT {

    private final String cell = "shutdown-" + UUID.randomUUID().toString().substring(0, 8);
    private final TestBackend backend = TestBackend.current();
    private final String database = backend.postgres().createDatabase();

    @Test
    void closingTheRepEvacuatesItsCellBeforeItLeaves() {
        SimulatedExecutorFactory containers = new SimulatedExecutorFactory(SimulatedProperties.instant());
        ConfigurableApplicationContext rep = rep(containers);
        Lrps lrps = new Lrps(rep.getBean(DesiredLrpLifecycle.class), rep.getBean(ActualLrpLifecycle.class),
                rep.getBean(ActualLrpRepository.class));
        String guid = lrps.desire("leaving", 2, 64);
        lrps.place(guid, cell, 0, 1);
        await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(guid).stream()
                .allMatch(a -> a.state() == ActualLrpState.RUNNING));

        long started = System.nanoTime();
        rep.close();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("old containers served until the deadline")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
        assertThat(containers.executor(cell).orElseThrow().containers()).isEmpty();
        // The rep's context is gone: look at what it left with a connection of our own.
        JdbcTemplate db = new JdbcTemplate(new DriverManagerDataSource(database, backend.postgres().username(),
                backend.postgres().password()));
        assertThat(db.queryForList("SELECT state FROM actual_lrps WHERE process_guid = ?", String.class, guid))
                .containsExactly("UNCLAIMED", "UNCLAIMED");
        assertThat(db.queryForObject("SELECT count(*) FROM lrp_events WHERE process_guid = ? AND event_type = "
                + "'actual_lrp_created' AND reason = ?", Integer.class, guid, "evacuating cell " + cell))
                .as("both kept serving from an evacuating twin while the drain lasted").isEqualTo(2);
        assertThat(db.queryForObject("SELECT count(*) FROM evacuating_lrps WHERE process_guid = ?", Integer.class,
                guid)).as("the twins went with their containers").isZero();
        assertThat(db.queryForObject("SELECT count(*) FROM cells WHERE cell_id = ?", Integer.class, cell)).isZero();
        containers.close();
    }

    private ConfigurableApplicationContext rep(SimulatedExecutorFactory containers) {
        return new SpringApplicationBuilder(RepApplication.class).web(WebApplicationType.NONE)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("sharedContainers", containers))
                .properties(Map.ofEntries(Map.entry("spring.datasource.url", database),
                        Map.entry("spring.datasource.username", backend.postgres().username()),
                        Map.entry("spring.datasource.password", backend.postgres().password()),
                        Map.entry("spring.kafka.bootstrap-servers", backend.kafkaBootstrapServers()),
                        Map.entry("drover.rep.executor", "simulated"), Map.entry("drover.rep.cell-id", cell),
                        Map.entry("drover.rep.shutdown", "evacuate"), Map.entry("drover.rep.admin.enabled", "false"),
                        Map.entry("drover.rep.timing.evacuation-deadline", "2s"),
                        Map.entry("drover.rep.timing.evacuating-sync-interval", "200ms")))
                .run();
    }
}
