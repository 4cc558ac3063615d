package io.drover.converger.autoscale;

import io.drover.model.autoscale.AutoscalerRecords;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.lrp.DesiredLrpLifecycle;
import io.drover.model.read.AutoscaledLrps;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the autoscaler: the converger's leader election gates it and its lock fences every write it makes. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AutoscalerProperties.class)
@ConditionalOnProperty(name = "drover.autoscaler.enabled", havingValue = "true", matchIfMissing = true)
class AutoscaleConfiguration {

    @Bean
    Autoscaler autoscaler(AutoscaledLrps reads, DesiredLrpLifecycle desired, AutoscalerRecords records,
            LeaderLock lock, LeaderElection convergerLeaderElection, Clock clock, AutoscalerProperties p) {
        LeadershipFence fence = new LeadershipFence(lock, convergerLeaderElection);
        return new Autoscaler(reads, desired.guardedBy(fence), records.guardedBy(fence), clock, p.warmup());
    }

    @Bean
    AutoscalerLoop autoscalerLoop(Autoscaler autoscaler, LeaderElection convergerLeaderElection,
            AutoscalerProperties p, MeterRegistry meters) {
        return new AutoscalerLoop(autoscaler, convergerLeaderElection::isLeader, p.interval().toMillis(), meters);
    }
}
