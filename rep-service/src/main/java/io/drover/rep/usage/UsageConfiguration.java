package io.drover.rep.usage;

import io.drover.model.usage.InstanceUsages;
import io.drover.rep.agent.CellAgents;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Per-instance usage reporting, on unless {@code drover.rep.usage.enabled=false}. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UsageProperties.class)
@ConditionalOnProperty(name = "drover.rep.usage.enabled", havingValue = "true", matchIfMissing = true)
class UsageConfiguration {

    // The reporter owns its thread: an Executor bean would replace Spring Boot's default task executor.
    @Bean(destroyMethod = "close")
    UsageReporter usageReporter(CellAgents agents, InstanceUsages store, MeterRegistry meters, UsageProperties p,
            Clock clock) {
        return new UsageReporter(agents, store, new UsageMeters(meters, clock, p.gaugeLimit()), p, clock);
    }
}
