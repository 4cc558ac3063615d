package io.drover.auctioneer.allocation;

import io.drover.auctioneer.AuctioneerProperties;
import io.drover.model.read.CellLoads;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The leader's allocation view over the model's one definition of what a cell carries ({@link CellLoads}: instances,
 * twins and tasks).
 */
@Configuration(proxyBeanMethods = false)
class AllocationConfiguration {

    @Bean
    Allocations allocations(CellLoads loads, Clock clock, AuctioneerProperties properties, MeterRegistry meters) {
        return new Allocations(() -> AllocationView.of(loads.allocations()), loads::totals, clock,
                properties.reconcileInterval(), meters);
    }
}
