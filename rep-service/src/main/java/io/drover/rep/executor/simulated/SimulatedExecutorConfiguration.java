package io.drover.rep.executor.simulated;

import io.drover.rep.executor.ExecutorFactory;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** With {@code drover.rep.executor=simulated}, every cell of this rep runs simulated containers. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "drover.rep.executor", havingValue = "simulated")
@EnableConfigurationProperties({ SimulatedProperties.class, SimulatedLoadProperties.class })
class SimulatedExecutorConfiguration {

    // A factory registered before configuration (a test handing one executor set to two rep contexts) wins.
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(ExecutorFactory.class)
    SimulatedExecutorFactory simulatedExecutorFactory(SimulatedProperties properties, Clock clock,
            SimulatedLoadProperties load) {
        return new SimulatedExecutorFactory(properties, clock, new SimulatedLoad(load.cpu()));
    }
}
