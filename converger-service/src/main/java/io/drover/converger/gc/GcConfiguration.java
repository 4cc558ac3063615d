package io.drover.converger.gc;

import io.drover.converger.ConvergerProperties;
import io.drover.model.cell.CellPresence;
import io.drover.model.domain.Domains;
import io.drover.model.leader.LeaderElection;
import io.drover.model.messaging.RelayedRows;
import io.drover.model.read.Tallies;
import io.drover.model.task.TaskLifecycle;
import io.drover.model.task.TaskModelProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Wires garbage collection; it shares the converger's leader election. */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class GcConfiguration {

    @Bean
    GarbageCollector garbageCollector(RelayedRows relayedRows, Domains domains, CellPresence cells,
            TaskLifecycle tasks, MeterRegistry registry, ConvergerProperties p, TaskModelProperties taskSettings) {
        return new GarbageCollector(new GarbageCollector.Tables(relayedRows, domains, cells, tasks), registry,
                new GarbageCollector.Retention(p.eventRetention(), p.sentOutboxRetention(), p.gcBatchSize(),
                        p.deadCellRetention(), taskSettings.tombstoneTtl()));
    }

    @Bean
    GarbageCollection garbageCollection(GarbageCollector collector, LeaderElection convergerLeaderElection,
            Clock clock, Tallies tallies, MeterRegistry registry) {
        return new GarbageCollection(collector, convergerLeaderElection, clock, tallies, registry);
    }
}
