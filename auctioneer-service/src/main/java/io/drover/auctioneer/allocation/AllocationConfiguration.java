package io.drover.auctioneer.allocation;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.model.task.TaskReads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The leader's allocation view over the database's aggregate (instances and tasks). */
@Configuration(proxyBeanMethods = false)
class AllocationConfiguration {

    @Bean
    Allocations allocations(JdbcTemplate jdbc, TaskReads tasks, Clock clock, AuctioneerProperties properties,
            MeterRegistry meters) {
        return new Allocations(new AllocationReader(jdbc, tasks)::read, clock, properties.reconcileInterval(), meters);
    }
}
