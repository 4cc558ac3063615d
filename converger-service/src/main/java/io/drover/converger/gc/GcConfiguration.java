package io.drover.converger.gc;

import io.drover.converger.ConvergerProperties;
import io.drover.model.cell.CellPresence;
import io.drover.model.domain.Domains;
import io.drover.model.leader.LeaderElection;
import io.drover.model.messaging.RelayedRows;
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
            MeterRegistry registry, ConvergerProperties p) {
        return new GarbageCollector(relayedRows, domains, cells, registry, new GarbageCollector.Retention(
                p.eventRetention(), p.sentOutboxRetention(), p.gcBatchSize(), p.deadCellRetention()));
    }

    @Bean
    GarbageCollection garbageCollection(GarbageCollector collector, LeaderElection convergerLeaderElection,
            Clock clock) {
        return new GarbageCollection(collector, convergerLeaderElection, clock);
    }
}
