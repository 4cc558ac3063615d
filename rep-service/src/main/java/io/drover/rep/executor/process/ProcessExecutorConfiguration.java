package io.drover.rep.executor.process;

import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Provides the process executor factory, the default executor ({@code drover.rep.executor=process}). */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "drover.rep.executor", havingValue = "process", matchIfMissing = true)
@EnableConfigurationProperties(ProcessExecutorProperties.class)
public class ProcessExecutorConfiguration {

    @Bean(destroyMethod = "close")
    ProcessExecutorFactory processExecutorFactory(ProcessExecutorProperties properties, Clock clock) {
        return new ProcessExecutorFactory(properties, clock);
    }
}
