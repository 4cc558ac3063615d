package io.drover.rep.agent;

import io.drover.model.cell.CellDrains;
import io.drover.model.cell.CellPresence;
import io.drover.model.lrp.ActualLrpLifecycle;
import io.drover.model.messaging.KafkaTopicsProperties;
import io.drover.model.read.ActualLrpOwners;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskReads;
import io.drover.rep.cell.CellLayout;
import io.drover.rep.cell.CellSettings;
import io.drover.rep.cell.LogEndpoint;
import io.drover.rep.cell.Machine;
import io.drover.rep.cell.RepMetrics;
import io.drover.rep.cell.RepProperties;
import io.drover.rep.evacuation.AdminServer;
import io.drover.rep.executor.ExecutorFactory;
import io.drover.rep.executor.KeptLogs;
import io.drover.rep.intake.WorkConsumer;
import io.drover.rep.records.CellRecords;
import io.drover.rep.records.Definitions;
import io.drover.rep.writes.GroupCommit;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;

/** Builds the rep: its cells from {@code drover.rep.*}, an executor per cell, the shared services and the admin port. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RepProperties.class)
class RepConfiguration {

    /** The exit status of a rep process whose cell id another live rep holds. */
    static final int CELL_ID_TAKEN = 1;

    @Bean
    CellRecords cellRecords(ActualLrpOwners owners) {
        return new CellRecords(owners);
    }

    @Bean
    Definitions definitions(DesiredLrpRows rows, Clock clock) {
        return new Definitions(rows, clock, Duration.ofSeconds(10));
    }

    @Bean
    RepServices repServices(ActualLrpLifecycle lifecycle, TaskLifecycle taskLifecycle, TaskReads tasks,
            CellRecords records, Definitions definitions, CellPresence presence, CellDrains drains,
            MeterRegistry meters, Supplier<UUID> idGenerator, Clock clock, RepProperties p) {
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, daemon("rep-timer"));
        timers.setRemoveOnCancelPolicy(true);
        int threads = p.workerThreads() > 0 ? p.workerThreads() : autoWorkerThreads(p.simulatedCells());
        return new RepServices(lifecycle, new GroupCommit(lifecycle, taskLifecycle), records, definitions, presence,
                drains, new RepMetrics(meters), idGenerator, clock, timers, Executors.newFixedThreadPool(threads, daemon("rep-worker")),
                Executors.newSingleThreadExecutor(daemon("rep-heartbeat")), tasks, idGenerator.get().toString());
    }

    @Bean
    CellAgents cellAgents(RepProperties p, ExecutorFactory executors, RepServices services,
            ConsumerFactory<?, ?> consumers, KafkaTopicsProperties topics,
            ConfigurableApplicationContext context, ObjectProvider<LogEndpoint> logServer,
            ObjectProvider<ProcessExit> processExit, KeptLogs keptLogs) {
        String logEndpoint = logServer.stream().map(LogEndpoint::endpoint).findFirst().orElse(null);
        List<CellSettings> cells = CellLayout.cells(p, Machine.hostName(), Machine.resources(), executors.isolation())
                .stream().map(c -> c.withLogEndpoint(logEndpoint)).toList();
        // a container's log outlives it: the executors keep the last lines of what they forget (KeptLogs)
        List<CellAgent> agents = cells.stream().map(c -> new CellAgent(c,
                keptLogs.around(executors.create(c.cellId(), c.address(), c.capacity()), c.cellId()),
                keptLogs.around(executors.createForTasks(c.cellId(), c.address(), c.capacity()), c.cellId()),
                services)).toList();
        String groupId = "drover-rep-" + cells.get(0).cellId();
        CellAgents all = new CellAgents(agents,
                sinks -> new WorkConsumer(consumers, groupId, topics.cellPartitions(), sinks, services.clock()),
                services, p.shutdown(), p.timing());
        if (agents.size() == 1) {
            // a rep of one cell has nothing to do once its cell id is taken; one of many simulated cells skips that cell
            all.onCellIdTaken(() -> new Thread(() -> {
                int status = SpringApplication.exit(context, () -> CELL_ID_TAKEN);
                processExit.ifAvailable(exit -> exit.exit(status));
            }, "rep-exit").start());
        }
        if (p.admin().exitAfterEvacuation()) {
            all.onAllDrained(() -> new Thread(() -> System.exit(SpringApplication.exit(context)), "rep-exit").start());
        }
        return all;
    }

    @Bean
    @ConditionalOnProperty(name = "drover.rep.admin.enabled", havingValue = "true", matchIfMissing = true)
    AdminServer adminServer(RepProperties p, CellAgents agents) {
        return new AdminServer(p.admin().port(), agents);
    }

    /**
     * A worker blocks while its cell's writes wait in the group commit, so a process of many cells needs enough workers
     * for many cells to be waiting in one transaction: a quarter of the cells, between 4 and 64.
     */
    static int autoWorkerThreads(int simulatedCells) {
        return Math.max(4, Math.min(64, simulatedCells / 4));
    }

    private static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
