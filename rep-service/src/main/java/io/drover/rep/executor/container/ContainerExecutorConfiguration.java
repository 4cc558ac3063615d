package io.drover.rep.executor.container;

import io.drover.rep.executor.process.ProcessExecutorFactory;
import io.drover.rep.executor.process.ProcessExecutorProperties;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Provides the container executor ({@code drover.rep.executor=container}): the process executor whose instances run
 * in containers of an OCI runtime where one works, and on the host where none does (docs/isolation.md).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "drover.rep.executor", havingValue = "container")
@EnableConfigurationProperties({ ProcessExecutorProperties.class, ContainerProperties.class })
public class ContainerExecutorConfiguration {

    @Bean(destroyMethod = "close")
    ProcessExecutorFactory containerExecutorFactory(ProcessExecutorProperties process, ContainerProperties container,
            Clock clock) {
        return new ProcessExecutorFactory(process, clock, new ContainerSandboxes(container, process.cgroupRoot()));
    }
}
