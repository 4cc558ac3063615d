package io.drover.converger.deploy;

import io.drover.model.deployment.DeploymentLifecycle;
import io.drover.model.deployment.DeploymentSlots;
import io.drover.model.leader.LeaderElection;
import io.drover.model.leader.LeaderLock;
import io.drover.model.leader.LeadershipFence;
import io.drover.model.lrp.ActualLrpLifecycle;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the deployer: the converger's leader election gates it and its lock fences every write it makes. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DeployerProperties.class)
class DeployConfiguration {

    @Bean
    Deployer deployer(DeploymentLifecycle deployments, DeploymentSlots slots, ActualLrpLifecycle actuals,
            LeaderLock lock, LeaderElection convergerLeaderElection, Clock clock, DeployerProperties p) {
        LeadershipFence fence = new LeadershipFence(lock, convergerLeaderElection);
        return new Deployer(deployments.guardedBy(fence), slots, actuals.guardedBy(fence), clock,
                p.orphanTwinsPerTick());
    }

    @Bean
    DeployerLoop deployerLoop(Deployer deployer, LeaderElection convergerLeaderElection, DeployerProperties p) {
        return new DeployerLoop(deployer, convergerLeaderElection::isLeader, p.interval().toMillis());
    }
}
