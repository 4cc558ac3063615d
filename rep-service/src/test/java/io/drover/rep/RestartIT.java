package io.drover.rep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.lrp.ActualLrpRepository;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.model.task.TaskState;
import io.drover.rep.executor.Container;
import io.drover.rep.executor.ExecutorFactory;
import io.drover.rep.executor.ContainerState;
import io.drover.rep.executor.simulated.SimulatedExecutorFactory;
import io.drover.rep.executor.simulated.SimulatedProperties;
import io.drover.test.TestBackend;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * SPEC 8.2 restart safety: the rep goes away (its containers do not) and a new rep for the same cell adopts them. The
 * simulated containers live in the executor factory, which both rep contexts are handed, as real processes outlive
 * the rep process that started them.
 */
class RestartIT {

    private final String cell = "restart-" + UUID.randomUUID().toString().substring(0, 8);
    private final String database = TestBackend.current().postgres().createDatabase();

    @Test
    void aRestartedRepAdoptsItsContainersAndLeavesTheirRecordsRunningUntouched() {
        SimulatedExecutorFactory containers = new SimulatedExecutorFactory(SimulatedProperties.instant());
        Map<Integer, String> guidsBefore;
        Map<Integer, Long> versionsBefore;
        String guid;
        try (ConfigurableApplicationContext first = rep(containers)) {
            Lrps lrps = lrps(first);
            guid = lrps.desire("survivor", 3, 64);
            lrps.place(guid, cell, 0, 1, 2);
            String processGuid = guid;
            await().atMost(Duration.ofSeconds(20)).until(() -> lrps.all(processGuid).stream()
                    .filter(a -> a.state() == ActualLrpState.RUNNING).count() == 3);
            guidsBefore = lrps.all(guid).stream().collect(Collectors.toMap(ActualLrp::index, ActualLrp::instanceGuid));
            versionsBefore = lrps.all(guid).stream().collect(Collectors.toMap(ActualLrp::index, ActualLrp::version));
        }
        List<Container> left = containers.executor(cell).orElseThrow().containers();
        assertThat(left).hasSize(3).allMatch(c -> c.state() == ContainerState.RUNNING);

        try (ConfigurableApplicationContext second = rep(containers)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> syncs(second) >= 2);
            List<ActualLrp> after = lrps(second).all(guid);
            assertThat(after).allMatch(a -> a.state() == ActualLrpState.RUNNING && cell.equals(a.cellId()));
            assertThat(after.stream().collect(Collectors.toMap(ActualLrp::index, ActualLrp::instanceGuid)))
                    .isEqualTo(guidsBefore);
            assertThat(after.stream().collect(Collectors.toMap(ActualLrp::index, ActualLrp::version)))
                    .as("adoption rewrites nothing").isEqualTo(versionsBefore);
            assertThat(containers.executor(cell).orElseThrow().containers())
                    .extracting(Container::instanceGuid).containsExactlyInAnyOrderElementsOf(guidsBefore.values());
        } finally {
            containers.close();
        }
    }

    @Test
    void aTaskRunningWhenTheRepWentAwayIsStoppedAndFailedCellRestarted() {
        SimulatedExecutorFactory containers = new SimulatedExecutorFactory(new SimulatedProperties(Duration.ZERO,
                Duration.ZERO, 0, Duration.ofMinutes(1), Duration.ZERO, 1, 61000, 65535, 1, Duration.ofMinutes(10)));
        String guid;
        try (ConfigurableApplicationContext first = rep(containers)) {
            Tasks tasks = tasks(first);
            guid = tasks.submit("interrupted", Tasks.run("work"), null);
            tasks.place(guid, cell);
            String taskGuid = guid;
            await().atMost(Duration.ofSeconds(20)).until(() -> tasks.find(taskGuid).state() == TaskState.RUNNING
                    && !containers.executor(cell + ExecutorFactory.TASKS_SUFFIX).orElseThrow().containers().isEmpty());
        }
        try (ConfigurableApplicationContext second = rep(containers)) {
            Tasks tasks = tasks(second);
            String taskGuid = guid;
            await().atMost(Duration.ofSeconds(20)).until(() -> tasks.find(taskGuid).state() == TaskState.COMPLETED);
            assertThat(tasks.find(guid).failed()).isTrue();
            assertThat(tasks.find(guid).failureReason()).isEqualTo("cell restarted");
            await().atMost(Duration.ofSeconds(10)).until(() -> containers.executor(cell + ExecutorFactory.TASKS_SUFFIX)
                    .orElseThrow().containers().isEmpty());
        } finally {
            containers.close();
        }
    }

    private static Tasks tasks(ConfigurableApplicationContext context) {
        return new Tasks(context.getBean(TaskLifecycle.class), context.getBean(TaskReads.class));
    }

    private ConfigurableApplicationContext rep(SimulatedExecutorFactory containers) {
        TestBackend backend = TestBackend.current();
        return new SpringApplicationBuilder(RepApplication.class).web(WebApplicationType.NONE)
                .initializers(ctx -> ctx.getBeanFactory().registerSingleton("sharedContainers", containers))
                .properties(Map.ofEntries(Map.entry("spring.datasource.url", database),
                        Map.entry("spring.datasource.username", backend.postgres().username()),
                        Map.entry("spring.datasource.password", backend.postgres().password()),
                        Map.entry("spring.kafka.bootstrap-servers", backend.kafkaBootstrapServers()),
                        Map.entry("drover.rep.executor", "simulated"), Map.entry("drover.rep.cell-id", cell),
                        Map.entry("drover.rep.shutdown", "keep"), Map.entry("drover.rep.admin.enabled", "false"),
                        Map.entry("drover.rep.timing.sync-interval", "300ms")))
                .run();
    }

    private static Lrps lrps(ConfigurableApplicationContext context) {
        return new Lrps(context.getBean(DesiredLrpLifecycle.class), context.getBean(ActualLrpLifecycle.class),
                context.getBean(ActualLrpRepository.class));
    }

    private static long syncs(ConfigurableApplicationContext context) {
        Timer timer = context.getBean(MeterRegistry.class).find("drover.rep.sync.duration").timer();
        return timer == null ? 0 : timer.count();
    }
}
